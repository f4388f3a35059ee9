import ArgumentParser

/// The zone `--date` shows times in.
enum DateZone: String, ExpressibleByArgument, CaseIterable {
    /// Coordinated Universal Time, written with `Z`.
    case utc
    /// The machine's time zone (`TZ`), written with its offset.
    case local
}

/// `--date utc|local`, for the readable time lines of `decode` and `verify`.
struct TimeDisplayOptions: ParsableArguments {
    /// `--date`.
    @Option(help: ArgumentHelp(
        "The zone of the readable exp/nbf/iat/auth_time lines on stderr: utc (default) or local. JSON output is unchanged.",
        valueName: "utc|local"))
    var date: DateZone = .utc
}
