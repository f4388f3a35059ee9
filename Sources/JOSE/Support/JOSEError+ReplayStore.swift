extension JOSEError.Code {
    /// A shared replay store (`ReplayCache`) could not be asked (unreachable, timed out, failed), so whether a
    /// proof, logout token or login transaction was used before is unknown: it is refused (fail
    /// closed), and a resource server answers `503`.
    public static let replayStoreUnavailable = JOSEError.Code(rawValue: "replay_store_unavailable")
}
