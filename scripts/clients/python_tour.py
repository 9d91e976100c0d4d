"""Every example of the README and of the guides in docs/ through the Python
client openapi-python-client generates from the OpenAPI document, against a
live server.

    python python_tour.py BASE_URL [openapi.json] [PAGE.md ...]

(the pages default to README.md and every docs/*.md)

Run with the generated package (`gin_referee_client`) installed. Checks:

- names: every generated model class is named after the document (a
  component schema or a `title`), with no machine names (`...Type0`,
  `...Dto`, `...Body`, `...Item`), and no two enums hold the same values (one
  enum `$ref`'d everywhere, not copies);
- the tour: each `curl -s localhost:8080/...` of each page is sent through the
  generated operation, its body built as the generated request model (which
  must give back the page's body unchanged: no field lost or invented), and
  answered with the generated response model, which must hold every field the
  server sent (none left over in `additional_properties`) and give back the
  answer unchanged; where the page shows the answer, it is that answer; where
  its prose states a figure (deadwood 22, ...), the typed attribute is checked.
  NDJSON bodies (no generated operation: openapi-python-client does not speak
  NDJSON) are sent with the client's httpx client and each answer line read as
  the generated line model; a batch sent as a JSON array goes through the
  generated batch operation, typed both ways.

Exits 1 on any failure, listing them all.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import os
import pathlib
import pkgutil
import re
import sys
import typing
from typing import Any

import attrs

import gin_referee_client
import gin_referee_client.api
import gin_referee_client.models as models
from gin_referee_client import AuthenticatedClient, Client
from gin_referee_client.types import Unset

CURL = "curl -s localhost:8080"
# Names openapi-python-client makes up for schemas the document leaves
# unnamed: a oneOf branch (`ActionType0`), a list item (`GamesItem`), or a
# Rust type name leaking through (`...Dto`, `...Body`).
MACHINE_NAME = re.compile(r"Type\d+|Dto$|Body$|Item$")
# Generated names the check accepts, with the reason. (None at present.)
ALLOWED_NAMES: dict[str, str] = {}

failures: list[str] = []


def fail(message: str) -> None:
    failures.append(message)
    print(f"FAIL {message}")


def document_names(document: dict) -> set[str]:
    """The names the document gives: its component schemas and every title."""
    names = set(document.get("components", {}).get("schemas", {}))

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("title"), str):
                names.add(value["title"])
            for key, item in value.items():
                if key not in ("example", "examples"):  # a problem's "title" is no name
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    return names


def check_names(document: dict) -> int:
    named = document_names(document)
    classes = {
        name: value
        for name, value in vars(models).items()
        if inspect.isclass(value) and value.__module__.startswith(models.__name__ + ".")
    }
    for name in sorted(classes):
        if name in ALLOWED_NAMES:
            continue
        if MACHINE_NAME.search(name):
            fail(f"generated class {name} has a machine name")
        elif name not in named:
            fail(f"generated class {name} is named by the generator, not the document "
                 "(an inline schema: make it a component or give it a title)")
    enums: dict[frozenset, list[str]] = {}
    for name, value in classes.items():
        if issubclass(value, enum.Enum):
            enums.setdefault(frozenset(member.value for member in value), []).append(name)
    for names in enums.values():
        if len(names) > 1:
            fail(f"one enum generated {len(names)} times: {', '.join(sorted(names))}")
    machine = sum(1 for name in classes if MACHINE_NAME.search(name))
    print(f"python: {len(classes)} generated model classes, {machine} with machine names")
    return len(classes)


def operations() -> dict[tuple[str, str], Any]:
    """The generated operation modules by (METHOD, path)."""
    found = {}
    for info in pkgutil.walk_packages(gin_referee_client.api.__path__, "gin_referee_client.api."):
        module = importlib.import_module(info.name)
        if not hasattr(module, "sync_detailed"):
            continue
        source = inspect.getsource(module._get_kwargs)
        method = re.search(r'"method": "(\w+)"', source).group(1).upper()
        url = re.search(r'"url": "([^"]+)"', source).group(1)
        found[(method, url)] = module
    return found


def operation(ops: dict, method: str, path: str) -> Any:
    """The operation of a concrete path (`/v1/profiles/oklahoma` is
    `/v1/profiles/{name}`)."""
    for (op_method, template), module in ops.items():
        pattern = re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template))
        if op_method == method and re.fullmatch(pattern, path):
            return module
    return None


def readme_commands(readme: str) -> list[dict]:
    """A page's commands, read as tests/api/readme.rs reads them."""
    commands = []
    at = readme.find(CURL)
    while at != -1:
        rest = readme[at + len(CURL) :]
        path = re.match(r"\S*", rest).group(0)
        head = ""
        for line in rest.splitlines(keepends=True):
            head += line
            if not line.rstrip().endswith("\\"):
                break
        dash = head.find("-d '")
        body = rest[dash + 4 : rest.index("'", dash + 4)] if dash != -1 else None
        ndjson = None
        if "--data-binary @- <<'EOF'" in head:
            ndjson = rest[len(head) : rest.index("\nEOF", len(head))] + "\n"
        fence = rest.find("\n```")
        # The answer's block follows the command's, a blank line between or not.
        after = rest[fence + 4 :].lstrip("\n") if fence != -1 else ""
        shown = None
        if after.startswith("```json\n"):
            try:
                shown = json.loads(after[len("```json\n") :].split("\n```")[0])
            except json.JSONDecodeError:
                pass
        line = readme[:at].count("\n") + 1
        # The `Accept` a command sends (a picture, or a refusal: docs/PICTURES.md).
        accept = re.search(r"-H 'accept: ([^']*)'", head)
        accept = accept.group(1) if accept else None
        commands.append(
            dict(path=path, body=body, ndjson=ndjson, shown=shown, line=line, accept=accept)
        )
        at = readme.find(CURL, at + len(CURL))
    return commands


def leftovers(value: Any, where: str = "") -> list[str]:
    """Fields a generated model did not know (kept in additional_properties)
    in a parsed answer, where the model has named fields (a map's entries are
    its additional properties)."""
    found = []
    if attrs.has(type(value)):
        named = [f.name for f in attrs.fields(type(value)) if f.name != "additional_properties"]
        extra = getattr(value, "additional_properties", {})
        if named and extra:
            found.append(f"{where or '/'} {type(value).__name__}: {sorted(extra)}")
        for field in named:
            found += leftovers(getattr(value, field), f"{where}/{field}")
        for key, item in extra.items():
            found += leftovers(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leftovers(item, f"{where}/{index}")
    return found


def to_json(value: Any) -> Any:
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value.to_dict() if hasattr(value, "to_dict") else value


def body_model(module: Any) -> tuple[type | None, bool]:
    """The generated request model, and whether the body is a list of it (a
    batch sent as a JSON array)."""
    annotation = inspect.signature(module._get_kwargs).parameters.get("body")
    if annotation is None:
        return None, False
    name = annotation.annotation
    if typing.get_origin(name) is list:
        return typing.get_args(name)[0], True
    if not isinstance(name, str):
        return name, False
    name = name.split("|")[0].strip()
    if name.startswith("list[") and name.endswith("]"):
        return getattr(module, name[len("list["):-1]), True
    return getattr(module, name), False


def run_tour(base_url: str, pages: dict[str, str]) -> tuple[int, dict[str, dict[str, Any]]]:
    ops = operations()
    # The service requires the API key in GIN_REFEREE_KEY (check.sh makes
    # one): the generated client sends it as the document's bearer token.
    key = os.environ.get("GIN_REFEREE_KEY")
    client = AuthenticatedClient(base_url=base_url, token=key) if key else Client(base_url=base_url)
    if key:
        keyless = Client(base_url=base_url).get_httpx_client().post(
            "/v1/hands/analyze", json={"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]})
        refused = (keyless.status_code, keyless.json().get("code"))
        if refused != (401, "unauthorized"):
            fail(f"a call without the key was answered {refused}, not (401, 'unauthorized')")
    # page -> "METHOD PATH N" -> parsed answer
    answers: dict[str, dict[str, Any]] = {}
    sent = 0
    for page, text in pages.items():
        answers[page] = {}
        for command in readme_commands(text):
            where = f"{page}:{command['line']} {command['path']}"
            try:
                sent += send(ops, client, where, command, answers[page])
            except Exception as error:  # noqa: BLE001 - every command is tried
                fail(f"{where}: {type(error).__name__}: {str(error)[:300]}")
    return sent, answers


def send(ops: dict, client: Client, where: str, command: dict, answers: dict) -> int:
    """Sends one page's command through the client; 1 if it was sent."""
    if command["ndjson"] is not None:
        check_ndjson(client, where, command)
        return 1
    method = "POST" if command["body"] is not None else "GET"
    if command["accept"] is not None:
        # A picture (or its refusal): no generated model reads an SVG, so the
        # request goes through the client's own httpx client, Accept and all.
        check_accept(client, where, method, command)
        return 1
    module = operation(ops, method, command["path"])
    if module is None:
        if command["path"].startswith("/api-docs/") or command["path"] == "/viewer":
            return 0  # the document and the viewer page are not its operations
        fail(f"{where}: no generated operation for {method} {command['path']}")
        return 0
    kwargs: dict[str, Any] = {"client": client}
    if command["body"] is not None:
        body = json.loads(command["body"])
        model, many = body_model(module)
        request = [model.from_dict(item) for item in body] if many else model.from_dict(body)
        if to_json(request) != body:
            fail(f"{where}: {model.__name__} does not give back the page's body: "
                 f"{json.dumps(to_json(request))}")
        kwargs["body"] = request
    else:
        for name in inspect.signature(module.sync_detailed).parameters:
            if name != "client":  # a path parameter: the path's last segment
                kwargs[name] = command["path"].rsplit("/", 1)[1]
    response = module.sync_detailed(**kwargs)
    parsed = response.parsed
    content_type = response.headers.get("content-type", "")
    if "json" not in content_type:
        if response.status_code != 200:
            fail(f"{where}: answered {response.status_code}")
        return 1
    answer = json.loads(response.content)
    if parsed is None or isinstance(parsed, Unset):
        fail(f"{where}: the client did not parse the {response.status_code} answer")
        return 1
    for leftover in leftovers(parsed):
        fail(f"{where}: the model does not know fields the server sent at {leftover}")
    if to_json(parsed) != answer:
        fail(f"{where}: {type(parsed).__name__} does not give back the answer")
    if command["shown"] is not None and answer != command["shown"]:
        fail(f"{where}: answered {json.dumps(answer)}, the page shows {json.dumps(command['shown'])}")
    if command["shown"] is None and response.status_code != 200:
        fail(f"{where}: answered {response.status_code}: {answer}")
    answers[f"{method} {command['path']} {len(answers)}"] = parsed
    return 1


def check_accept(client: Client, where: str, method: str, command: dict) -> None:
    """A command that sends `Accept`: the page's JSON, or that media type."""
    response = client.get_httpx_client().request(
        method,
        command["path"],
        content=command["body"],
        headers={"Content-Type": "application/json", "Accept": command["accept"]},
    )
    media = response.headers.get("content-type", "")
    if command["shown"] is not None:
        if response.json() != command["shown"]:
            fail(f"{where}: answered {response.text[:300]}, the page shows {command['shown']}")
    elif response.status_code != 200 or not media.startswith(command["accept"]):
        fail(f"{where}: Accept {command['accept']} answered {response.status_code} {media}")


def check_ndjson(client: Client, where: str, command: dict) -> None:
    line_models = {
        "/v1/hands/analyze/batch": "AnalyzeBatchLine",
        "/v1/hands/score/batch": "ScoreBatchLine",
        "/v1/melds/validate/batch": "ValidateBatchLine",
        "/v1/layoffs/batch": "LayoffsBatchLine",
        "/v1/hands/audit/batch": "AuditBatchLine",
    }
    model = getattr(models, line_models.get(command["path"], ""), None)
    if model is None:
        fail(f"{where}: no generated line model for {command['path']}")
        return
    response = client.get_httpx_client().post(
        command["path"], content=command["ndjson"], headers={"content-type": "application/x-ndjson"}
    )
    if response.status_code != 200:
        fail(f"{where}: answered {response.status_code}")
        return
    for number, text in enumerate(response.text.splitlines(), 1):
        answer = json.loads(text)
        parsed = model.from_dict(answer)
        for leftover in leftovers(parsed):
            fail(f"{where} answer line {number}: the model does not know {leftover}")
        if parsed.to_dict() != answer:
            fail(f"{where} answer line {number}: {model.__name__} does not give back {text}")


def check_prose(answers: dict[str, dict[str, Any]]) -> None:
    """What the pages' prose says of each answer, read from typed attributes."""

    def of(page: str) -> dict[str, list[Any]]:
        by_path: dict[str, list[Any]] = {}
        for key, value in answers.get(page, {}).items():
            by_path.setdefault(" ".join(key.split()[:2]), []).append(value)
        return by_path

    def expect(what: str, got: Any, want: Any) -> None:
        if got != want:
            fail(f"{what}: {got!r}, the page says {want!r}")

    readme = of("README.md")
    (analyze,) = readme["POST /v1/hands/analyze"]
    expect("README: the analysis's deadwood", analyze.deadwood, 22)
    (score,) = readme["POST /v1/hands/score"]
    expect("README: the hand is an undercut", str(score.outcome), "undercut")
    expect("README: it scores 26", score.points, 26)
    expect("README: 2C, 7C and 8C are laid off",
           sorted(layoff.card for layoff in score.defender.layoffs), ["2C", "7C", "8C"])
    (match,) = readme["POST /v1/matches/score"]
    expect("README: Dad's gin scores 56", match.hands[2].points, 56)
    (audit,) = readme["POST /v1/hands/audit"]
    expect("README: the audited hand is legal", audit.legal, True)
    expect("README: it has no result yet", audit.result, None)

    hands = of("docs/HANDS.md")
    analyze = hands["POST /v1/hands/analyze"]
    expect("HANDS: the first analysis is a problem", type(analyze[0]), models.Problem)
    expect("HANDS: its code", analyze[0].code, "invalid_body")
    expect("HANDS: its first error's pointer", analyze[0].errors[0].pointer, "/hand/3")
    expect("HANDS: the analysis", type(analyze[1]), models.AnalyzeResponse)
    expect("HANDS: its deadwood", analyze[1].deadwood, 22)
    expect("HANDS: its deadwood cards", sorted(analyze[1].deadwood_cards), sorted(["KH", "QD", "2S"]))
    (melds,) = hands["POST /v1/melds/validate"]
    expect("HANDS: the melds are valid", melds.valid, True)
    expect("HANDS: their kinds", [str(meld.kind) for meld in melds.melds], ["set", "run"])
    (layoffs,) = hands["POST /v1/layoffs"]
    expect("HANDS: the layoffs answer", type(layoffs), models.LayoffsResponse)
    expect("HANDS: a layoff's meld index", type(layoffs.defender.layoffs[0].meld), int)
    (score,) = hands["POST /v1/hands/score"]
    expect("HANDS: the score", type(score), models.ScoreResponse)
    expect("HANDS: its multiplier", type(score.breakdown.multiplier), int)
    profiles = hands["GET /v1/profiles"][0]
    expect("HANDS: the presets include oklahoma", "oklahoma" in [str(p.name) for p in profiles], True)
    (oklahoma,) = hands["GET /v1/profiles/oklahoma"]
    expect("HANDS: the profile's name", str(oklahoma.name), "oklahoma")

    jokers = of("docs/JOKERS.md")
    (analyze,) = jokers["POST /v1/hands/analyze"]
    expect("JOKERS: the analysis", type(analyze), models.AnalyzeResponse)
    (layoffs,) = jokers["POST /v1/layoffs"]
    expect("JOKERS: the layoffs answer", type(layoffs), models.LayoffsResponse)
    (audit,) = jokers["POST /v1/hands/audit"]
    expect("JOKERS: the audited hand is legal", audit.legal, True)
    expect("JOKERS: its gin scores 69", audit.result.points, 69)
    expect("JOKERS: the knocker's X1 is the 4S", to_json(audit.result.knocker)["jokers"], {"X1": "4S"})

    matches = of("docs/MATCHES.md")
    two, three, partnership, game = matches["POST /v1/matches/score"]
    expect("MATCHES: the two-player match", type(two), models.MatchResponse)
    expect("MATCHES: the three-player match", type(three), models.ThreePlayerMatchResponse)
    expect("MATCHES: three players' finals", len(three.final.additional_properties), 3)
    expect("MATCHES: the partnership match", type(partnership), models.PartnershipMatchResponse)
    expect("MATCHES: North-South scores 2 for the deal",
           partnership.hands[0].totals.additional_properties["North-South"], 2)
    expect("MATCHES: the worked game's running totals",
           [[deal.totals.additional_properties[team] for team in ("North-South", "East-West")]
            for deal in game.hands],
           [[2, 0], [2, 0], [49, 0], [49, 29], [79, 29], [125, 29]])
    final = game.final.additional_properties
    expect("MATCHES: North-South's settlement",
           [final["North-South"].box_bonus, final["North-South"].game_bonus, final["North-South"].total],
           [100, 100, 325])
    expect("MATCHES: East-West's total", final["East-West"].total, 54)
    expect("MATCHES: the net", game.net, 271)

    audits = of("docs/AUDITS.md")
    audit, declared = audits["POST /v1/hands/audit"]
    expect("AUDITS: the audited hand is legal", audit.legal, True)
    expect("AUDITS: it has no result yet", audit.result, None)
    expect("AUDITS: the hand with declared layoffs", type(declared), models.AuditResponse)
    expect("AUDITS: the declared hand is legal", declared.legal, True)
    expect("AUDITS: 7H (onto 5H) and 4S (placed by the referee) are laid off",
           sorted(layoff.card for layoff in declared.result.defender.layoffs), ["4S", "7H"])
    (match_audit,) = audits["POST /v1/matches/audit"]
    expect("AUDITS: the audited match is legal", match_audit.legal, False)
    expect("AUDITS: its violation's code", str(match_audit.violation.code), "wrong_dealer")
    expect("AUDITS: its violation's pointer", match_audit.violation.pointer, "/hands/1/dealer")
    expect("AUDITS: its violation's hand", match_audit.violation.hand, 1)
    expect("AUDITS: the claim agrees", match_audit.claimed.agrees, True)
    expect("AUDITS: Bob's total", match_audit.match.final.additional_properties["Bob"].total, 60)
    expect("AUDITS: the match audit's receipt is a compact JWS", match_audit.receipt.count("."), 2)

    (deal,) = of("docs/RECEIPTS.md")["POST /v1/deals"]
    expect("RECEIPTS: the deal's algorithm", deal.algorithm, "hmac-sha256-fisher-yates-v1")
    expect("RECEIPTS: the upcard", deal.deal.upcard, "8S")
    expect("RECEIPTS: the non-dealer's hand", deal.deal.non_dealer,
           "3D 4C 6S 4H 6H 2D 2C AS QH 9D".split())

    (problem,) = of("docs/ERRORS.md")["POST /v1/hands/analyze"]
    expect("ERRORS: the duplicate card", type(problem), models.Problem)
    expect("ERRORS: its pointer", problem.errors[0].pointer, "/hand/3")


def main() -> int:
    base_url = sys.argv[1]
    root = pathlib.Path(__file__).resolve().parents[2]
    document_path = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else root / "openapi/openapi.json")
    page_paths = ([pathlib.Path(page) for page in sys.argv[3:]] if len(sys.argv) > 3
                  else [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    pages = {str(page.resolve().relative_to(root)): page.read_text() for page in page_paths}
    check_names(json.loads(document_path.read_text()))
    sent, answers = run_tour(base_url, pages)
    try:
        check_prose(answers)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError) as error:
        fail(f"the pages' prose could not be checked on the typed answers: {error!r}")
    print(f"python: {sent} commands of {len(pages)} pages sent through the generated client, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
