// Stub of Apple's Dispatch module (libdispatch's Swift overlay), which Foundation re-exports:
// only what swift-jose reaches (the timer a fetch's deadline is; the CLI's semaphores and
// concurrentPerform), with the signatures and availability of Apple's SDK (all since macOS 10.10,
// iOS 8, tvOS 9, watchOS 2).
public struct DispatchTime: Comparable, Sendable {
    public static func now() -> DispatchTime { DispatchTime() }
    public static func < (lhs: DispatchTime, rhs: DispatchTime) -> Bool { false }
    public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }
}
public enum DispatchTimeInterval: Equatable, Sendable { case seconds(Int), milliseconds(Int), microseconds(Int), nanoseconds(Int), never }
open class DispatchQueue: @unchecked Sendable {
    public enum QoSClass: Sendable { case background, utility, `default`, userInitiated, userInteractive, unspecified }
    open class func global(qos: QoSClass = .default) -> DispatchQueue { DispatchQueue() }
}
public protocol DispatchSourceProtocol {
    func setEventHandler(handler: (@convention(block) () -> Void)?)
    func resume()
    func cancel()
}
public protocol DispatchSourceTimer: DispatchSourceProtocol {
    func schedule(deadline: DispatchTime, repeating interval: DispatchTimeInterval, leeway: DispatchTimeInterval)
}
extension DispatchSourceTimer {
    public func schedule(deadline: DispatchTime, repeating interval: DispatchTimeInterval = .never,
                         leeway: DispatchTimeInterval = .nanoseconds(0)) {}
}
open class DispatchSource {
    public struct TimerFlags: OptionSet, Sendable { public let rawValue: UInt; public init(rawValue: UInt) { self.rawValue = rawValue } }
    open class func makeTimerSource(flags: TimerFlags = [], queue: DispatchQueue? = nil) -> any DispatchSourceTimer { fatalError() }
}
extension DispatchQueue {
    public class func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {}
}
public enum DispatchTimeoutResult: Sendable { case success, timedOut }
open class DispatchSemaphore: @unchecked Sendable {
    public init(value: Int) {}
    public func wait() {}
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { .success }
    @discardableResult public func signal() -> Int { 0 }
}
