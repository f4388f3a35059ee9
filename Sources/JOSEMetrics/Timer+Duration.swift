#if Metrics
import CoreMetrics

extension Timer {
    /// Records `duration`, in nanoseconds (clamped to what an `Int64` holds).
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (wholeNanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        recordNanoseconds(overflow ? (seconds < 0 ? .min : .max)
                                   : wholeNanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
#endif
