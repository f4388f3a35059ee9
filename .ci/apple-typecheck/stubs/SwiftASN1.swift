// Audit stub of swift-asn1 1.x: the object identifier that swift-jose's x5c check names an
// extension with.
public struct ASN1ObjectIdentifier: Hashable, Sendable {
    public init(dotRepresentation: String) throws {}
}
