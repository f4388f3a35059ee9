extension Duration {
    /// The duration in seconds as a `Double` (what clock readings are compared in), for any
    /// duration: computed by division, not through `components`, whose `Int64` seconds trap
    /// beyond about 292 billion years.
    package var inSeconds: Double {
        self / .seconds(1)
    }
}
