import Testing
@testable import JOSE

/// RSASSA-PSS in JWS (RFC 7518 §3.5) uses a salt exactly as long as the hash; both backends
/// refuse any other salt length. The signatures were made with pyca/cryptography 48
/// (`padding.PSS(mgf=MGF1(SHA256()), salt_length=N)`) over the signing input below with the
/// RSA-2048 key below.
@Suite("PSS salt length")
struct PSSSaltLengthTests {
    static let modulus = "jcSZaHiNISuhQ4KsJfDxxVmJuwCCQMQK9_96BLfSVvCcIRMdz4TPnxv8J6Ie7tMyORTjy65aTPWDirlYNIprVTleK7sHLn2OR7PSAoxE0fP5zMTnVOp65b8SGR0YX7J2fd6nVBT_SExeDYZ2Ssd0YdNrlbSi5mYM5Rn2I36z3Z8quu4gBGphgIrZPLAHqV3TvMpvPoGVGiWQ0DMPQkg0ANZOV1Fj9hRghELc2qib6PEgwqD6JO0I7x3_v8t3Cu5IJY1mr0uVdPHyBQC2-yvwza68JhDVCIhTL-S89bgrEtN2Z5A69CUFoMGS6DzIhTZU33u1EX6Cec_Lb4HPNuirsQ"
    static let signingInput = Array("eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9".utf8)
    /// PS256 signatures by salt length in bytes.
    static let signatures: [Int: String] = [
        0: "gUM-8ZwE9ThuwdrXMp5gIKGCHNjMkg5S4gU4apdYj8F-uCX9tyS20QzF61vgxfYygGmWOcp9z4XVXG8dX0DbQ-amp73xBFN99myOFEfDyUwIyBNxXiNqcQSupmLgjS5kFg-hH-GqR3YsnWxjRkwkiEHMOZD0NAHeZlx1JZQgyc_g0s_J3Qqk7bOD3XNdzTQUGxgZR9JQzfH-Rc3CibKonp56fZhABblW34ZWify3-z5upDnwG_LJppabhlkxhYsV26PisW_ILJiJ8z1s8AYT9_ZSFblE57CFTOaZDY4ATLLKzYSDuk1u_aMnUuTBLcuI8E8spnH35-s-gggzDgxB8Q",
        20: "bLZ2Y3LrUzty2Fe0bvwb3Q_TBsV3f6UUIWiC9Ky-vpDdem-oJOFAWlNYdcZRfxpMbifLLLIvtxYbxN_J6Tvx9kgTUwVSKaqKS__1my8GM9CT1nLP89DP90Lm01NSmxgohjH7ekEFvOH1XL7aEUjiIpLGIMnb19pukgA5gamwCLZL5bIem8eqWZBoSZJ4UryokPaO0MZkzwW-EdphMCxBNLpVAWrExjsZGQ2gLoMDQ8LcjvR4A4T70k8N4ppzRnipwEnCAaphbTIqIlpnEWa0N-iYYH6oWDgFoSwTkAZoNR8L4QeQF7pbxuVt6l5BXn7xENiPbMaAKE6P0Uo8pyKdKg",
        32: "CXAGvKLEtuYnoFwTZHFB0n4wtjnjgs1IO2gya65zVbbsnv2UPsdTpnme8BpOzgC8FsS29Yy7vDS4qAzdWUAH9AA9Qte4j8xz9wRVStYAiaWVFQn9UMucMSICfA6vRpOGgwliDDoZUlf77co-ctfLiKs3Ih1J3zsrpW0aKS-52-TxsvtHmzMhlZCas0nRQ3RXuwjH3I6Dw1Wii5GvsNGD7jGHZrcJXwyUEAc6TDxjU3pcOH92DigvKM6Uqhz0HYt2ibZew-h25Ib7W8msYlcoOlib7nqYo-HDHMUr39tGDPhPde4Q4MWJ9yVFTrQ_sYmGJWnflq9M1u5-CAr_IOmKlA",
        64: "A4pkI-mvip2-Rp7zLaHy-Kv22oTSP9EF8T_5snMN6HYEzEs-RUy9TviFg0hwSGE_MtovPgdK29p-gTpNukqp0H09kVlImxb03g24ZRWRA-81DeZCVLWHDMt8cvOiMo7qn7PXdUO8AxR6SMxUyqn9nNoms7ZZD9h4Cngu9K-1cQoUUvOoQBSvWUycZGyZViqeG6vOroscYJtVS2z7k-DlQX5TgXiMxxhrlgfvVkcCJVUTgRUwxx2mgPHi97epkfRYl2gzewO9S5OGPcuCeZgmKLzwCu4qTfyBDLe9vQCobTGqKqcRxSzEwrMN6XKGU9LCPLmGJwkIjmBIIb6vLBVgTA",
    ]

    /// Only the 32-byte salt (SHA-256's length) verifies; 0, 20 and 64 bytes are refused.
    @Test(arguments: [0, 20, 32, 64])
    func onlyTheDigestLengthSaltVerifies(_ saltLength: Int) throws {
        let key = try AsymmetricKey.rsa(modulus: Base64URL.decode(Self.modulus), exponent: [1, 0, 1])
        let signature = try Base64URL.decode(try #require(Self.signatures[saltLength]))
        #expect(verify(.ps256, key, Self.signingInput, signature) == (saltLength == 32))
        #expect(backendErrorQueueIsEmpty())
    }
}
