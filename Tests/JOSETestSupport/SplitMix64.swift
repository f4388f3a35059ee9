/// A small deterministic random number generator (SplitMix64), so that a test over random input
/// repeats exactly, and a failing case can be replayed from its seed.
package struct SplitMix64: RandomNumberGenerator {
    /// The generator's state: the seed, advanced by each number drawn.
    package var state: UInt64

    /// A generator starting from `state`.
    package init(state: UInt64) {
        self.state = state
    }

    /// The next number.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
