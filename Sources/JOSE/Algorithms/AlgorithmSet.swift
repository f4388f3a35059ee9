/// A set of JWS algorithms as a bit mask: membership tests on the verify path cost one AND.
struct AlgorithmSet: Sendable, Equatable {
    private(set) var bits: UInt32

    /// The empty set.
    static let empty = AlgorithmSet(bits: 0)

    private init(bits: UInt32) { self.bits = bits }

    /// A set holding the given algorithms.
    init(_ algorithms: some Sequence<JWSAlgorithm>) {
        bits = 0
        for algorithm in algorithms { bits |= 1 << algorithm.ordinal }
    }

    /// Whether the set holds `algorithm`.
    @inline(__always)
    func contains(_ algorithm: JWSAlgorithm) -> Bool { bits & (1 << algorithm.ordinal) != 0 }

    /// The algorithms in both sets.
    func intersection(_ other: AlgorithmSet) -> AlgorithmSet { AlgorithmSet(bits: bits & other.bits) }

    /// The algorithms in either set.
    func union(_ other: AlgorithmSet) -> AlgorithmSet { AlgorithmSet(bits: bits | other.bits) }

    /// Whether the set holds no algorithm.
    var isEmpty: Bool { bits == 0 }

    /// The members in registry order.
    var algorithms: [JWSAlgorithm] { JWSAlgorithm.all.filter(contains) }
}
