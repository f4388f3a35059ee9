extension JWK {
    /// The bare crypto-backend check of `signature` over `signingInput` with this key: no parsing, no
    /// key selection, no allow-list. Only for the `JOSEPrimitiveSignatureCheck` target, whose check
    /// `jose bench` measures against the full verify.
    package func primitiveVerify(
        _ algorithm: JWSAlgorithm, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer
    ) -> Bool {
        verifies(algorithm, signingInput: signingInput, signature: signature)
    }
}
