// Test vectors of `hmac-sha256-fisher-yates-v1`, computed by an independent
// implementation (Python's `hmac` and `hashlib`, in `docs/RULES.md`,
// "Provably fair deals") and pinned here: (server seed, client seed, nonce,
// commitment, non-dealer, dealer, upcard, stock).
/// (server seed, client seed, nonce, commitment, non-dealer, dealer, upcard, stock).
type Vector = (&'static str, &'static str, u64, &'static str, &'static str, &'static str, &'static str, &'static str);

const VECTORS: [Vector; 5] = [
        (
            "0000000000000000000000000000000000000000000000000000000000000000",
            "",
            0,
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
            "5S 9D 9C AS 9H JD JS 4H AH 3H",
            "6H KH 6S 2C 7H AC 8D 3S 7D 8C",
            "TH",
            "QH QC 8H 4S QD TS 4C 8S QS 3D 7S KS 5D 4D 2S 2D JH 7C JC TC 6D AD 3C 2H TD 5H KD KC 5C 9S 6C",
        ),
        (
            "0000000000000000000000000000000000000000000000000000000000000000",
            "player",
            0,
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
            "3D 4C 6S 4H 6H 2D 2C AS QH 9D",
            "2S AH 5C KD 7S 9C 7H 6C 3H 6D",
            "8S",
            "AD 9H 8H 4D 5D KC JS KH TS TC 2H JD KS 9S 8C QC AC 7C 5S 3C TD 4S QS TH JC 7D 5H JH 8D QD 3S",
        ),
        (
            "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a",
            "client",
            7,
            "60bf07c488aad18fda339df07e4fbc47b4f00be71711936f18d04d352ad01890",
            "QH 5H TS 7S 5S AH QS JH 8H 9S",
            "KD KS JC KC 2H JS 8D 6S TC 3H",
            "TH",
            "7C 2D 3D QC 9C 5C 6C 3S 5D 6D AC KH AD 4S AS 4H 7D QD 2S 6H JD 8C 7H 4D 9D TD 2C 9H 3C 8S 4C",
        ),
        (
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "alice@example.com",
            1,
            "954d5a49fd70d9b8bcdb35d252267829957f7ef7fa6c74f88419bdc5e82209f4",
            "2D 8D AD TH 7S TD 3D 6H JC QH",
            "2C JS AS 3S 2H 6D TS 8C 4C KS",
            "4D",
            "5H 8S 9S 9C 7C 3H KD 6S JH QS AC TC 9D 2S 5C 3C AH QC JD 7D 6C KH QD 7H 5D 9H KC 4S 8H 4H 5S",
        ),
        (
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "élan ♠",
            9007199254740991,
            "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
            "JD 5C 8H 3D 7D 6H KD 8C 2C 4S",
            "3C 7S 2H 3H TD 5H 8D 7C 4D 2S",
            "7H",
            "6S TH 9H 9S KH 9C QS AH 5D 4C QC JH AS 5S 4H AD TC JC KS 8S 9D TS 6C 3S 2D JS QD KC AC QH 6D",
        ),
];

#[test]
fn the_published_test_vectors_come_out_exactly() {
    for (server, client, nonce, commitment, non_dealer, dealer, upcard, stock) in VECTORS {
        let seed = ServerSeed::from_hex(server).unwrap();
        assert_eq!(seed.commitment(), commitment, "{server}");
        let dealt = deal(&seed, client, nonce).unwrap();
        assert_eq!(text(&dealt.non_dealer), non_dealer, "{client} {nonce}");
        assert_eq!(text(&dealt.dealer), dealer, "{client} {nonce}");
        assert_eq!(dealt.upcard.to_string(), upcard, "{client} {nonce}");
        assert_eq!(text(&dealt.stock), stock, "{client} {nonce}");
    }
}
