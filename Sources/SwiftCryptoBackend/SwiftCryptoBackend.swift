// No code: this target carries swift-crypto's products into JOSE's build when the `SwiftCrypto`
// trait is on (see Package.swift). JOSE imports them itself.
