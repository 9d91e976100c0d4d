//! `gin-referee`: serve the referee over HTTP, print its OpenAPI document or
//! error table, or answer a batch of NDJSON lines (the grammar is [`cli`]).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use cli::{BatchJob, Cli, Command, KeysCommand, Operation};
use gin_contract::receipts::KeyRing;
use gin_contract::wire::receipt::Keys;
use gin_referee::config::Config;
use gin_referee::http::admission::auth::{NewKey, Operations};
use gin_referee::monitoring::telemetry;
use gin_referee::startup::Application;
use gin_referee::{batch, routes};

/// On musl (the static binary in the image) musl's malloc is the bottleneck:
/// slow, and one lock for every worker. glibc's malloc is kept elsewhere.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;

fn main() -> ExitCode {
    // Invalid flags or variables end here with clap's message and exit code 2.
    let cli = Cli::from_args();
    match cli.command {
        Some(Command::Openapi) => print_openapi(),
        Some(Command::Errors) => print_error_table(),
        Some(Command::Batch { operation }) => run_batch(operation, &cli.config),
        Some(Command::Arena(args)) => run_arena(&args, &cli.config),
        Some(Command::Keys {
            command:
                KeysCommand::New {
                    id,
                    scopes,
                    rate,
                    concurrency,
                },
        }) => new_api_key(&id, &scopes, rate, concurrency),
        None => serve(cli.config),
    }
}

/// `gin-referee batch <operation>`: stdin to stdout (see `gin_referee::batch`).
fn run_batch(operation: Operation, config: &Config) -> ExitCode {
    let keys = match KeyRing::load(
        config.signing_key.as_deref(),
        config.retired_keys.as_deref(),
    ) {
        Ok(keys) => keys,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    let job = BatchJob {
        operation,
        limits: config.limits,
        keys: Keys::new(Arc::new(keys)),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match batch::run(&job, config.batch, config.worker_count(), stdin, stdout) {
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `gin-referee arena`: exit code 0 when every planned game is played (or a
/// verification holds), 130 after SIGINT (the partial report written), 1 on
/// an error, 2 for bad arguments.
fn run_arena(args: &gin_referee::arena::ArenaArgs, config: &Config) -> ExitCode {
    match gin_referee::arena::run(args, config.worker_count(), config.signing_key.as_deref()) {
        Ok(gin_referee::arena::Ended::Complete) => ExitCode::SUCCESS,
        Ok(gin_referee::arena::Ended::Interrupted) => ExitCode::from(130),
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `gin-referee keys new`: the key, then the keys file's entry for it.
fn new_api_key(
    id: &str,
    scopes: &[String],
    rate: Option<f64>,
    concurrency: Option<u32>,
) -> ExitCode {
    let made = Operations::from_openapi(&routes::openapi())
        .and_then(|operations| NewKey::make(id, scopes, rate, concurrency, &operations));
    match made {
        Ok(made) => {
            println!("{}", made.key);
            println!("{}", made.entry);
            eprintln!(
                "The first line is the key: give it to its holder now, it is kept nowhere. \
                 Add the second line to the array in the --api-keys file."
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(2)
        }
    }
}

fn print_error_table() -> ExitCode {
    let table = gin_contract::error_codes::markdown_table();
    match std::io::stdout().lock().write_all(table.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: cannot print the error table: {err}");
            ExitCode::FAILURE
        }
    }
}

fn print_openapi() -> ExitCode {
    let written = routes::openapi_json()
        .map_err(|err| err.to_string())
        .and_then(|json| {
            std::io::stdout()
                .lock()
                .write_all(json.as_bytes())
                .map_err(|err| err.to_string())
        });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: cannot print the OpenAPI document: {err}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: Config) -> ExitCode {
    let installed = telemetry::filter(&config.log_level).and_then(|filter| {
        let ansi = std::io::stdout().is_terminal();
        telemetry::init(telemetry::subscriber(
            config.log_format,
            filter,
            std::io::stdout,
            ansi,
        ))
    });
    if let Err(err) = installed {
        eprintln!("error: {err}");
        return ExitCode::from(2);
    }
    telemetry::log_panics();

    let outcome = actix_web::rt::System::new().block_on(async {
        let app = Application::build(&config)?;
        let connections = app.connections();
        let open_file_limit = connections
            .open_file_limit
            .map_or_else(|| "unlimited".to_owned(), |limit| limit.to_string());
        tracing::info!(
            addr = %app.addr(),
            workers = config.worker_count(),
            body_limit = config.body_limit,
            max_connections_per_worker = connections.per_worker,
            open_file_limit,
            "gin-referee listening"
        );
        if connections.is_lowered() {
            // Informational: the default asks for more than most limits allow.
            tracing::info!(
                requested = connections.requested,
                max_connections_per_worker = connections.per_worker,
                open_file_limit,
                "--max-connections lowered to fit the open-file limit \
                 (raise it with `ulimit -n` or the container's nofile limit)"
            );
        }
        app.run_until_stopped().await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    });
    match outcome {
        Ok(()) => {
            tracing::info!("gin-referee stopped");
            ExitCode::SUCCESS
        }
        Err(err) => {
            tracing::error!(error = %err, "gin-referee failed");
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}
