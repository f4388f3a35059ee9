extension JWK {
    /// The bare crypto-backend check of `signature` over `signingInput` with this key: no parsing, no
    /// key selection, no allow-list. Only for the primitive timer beside `jose bench` (the
    /// `JOSEPrimitiveTimer` target), which measures it against the full verify.
    package func primitiveVerify(
        _ algorithm: JWSAlgorithm, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer
    ) -> Bool {
        verifies(algorithm, signingInput: signingInput, signature: signature)
    }
}
