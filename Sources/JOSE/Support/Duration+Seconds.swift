extension Duration {
    /// The duration in seconds as a `Double` (what clock readings are compared in), for any
    /// duration: computed by division, not through `components`, whose `Int64` seconds trap
    /// beyond about 292 billion years.
    package var inSeconds: Double {
        self / .seconds(1)
    }

    /// The duration in whole seconds, or `nil` when it has a fraction of a second: protocol
    /// fields such as `max_age` and `expires_in` are integers.
    package var wholeSeconds: Int64? {
        // `components` traps beyond Int64 seconds: such a duration is no protocol value.
        guard (Duration.seconds(Int64.min)...Duration.seconds(Int64.max)).contains(self) else { return nil }
        let (seconds, attoseconds) = components
        return attoseconds == 0 ? seconds : nil
    }
}
