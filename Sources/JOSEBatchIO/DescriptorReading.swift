#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor that could not be read.
package struct DescriptorReadError: Error, CustomStringConvertible {
    /// What `read(2)` reported, as `strerror` words it.
    package let reason: String

    /// ``reason``.
    package var description: String { reason }
}

/// Reading from a file descriptor, the way every input of `jose` is read.
package enum DescriptorReading {
    /// One `read(2)` of up to `count` bytes from `descriptor` into `destination`, retried when
    /// a signal interrupts it, and waiting for input when the descriptor is non-blocking.
    ///
    /// - Returns: how many bytes were read; 0 at the end of the input.
    /// - Throws: ``DescriptorReadError`` when the descriptor cannot be read.
    package static func readSome(_ descriptor: Int32, into destination: UnsafeMutableRawPointer,
                                 count: Int) throws(DescriptorReadError) -> Int {
        while true {
            let result = read(descriptor, destination, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                // A non-blocking descriptor (set so by whoever started us): wait for input instead.
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&request, 1, -1)
                continue
            }
            throw DescriptorReadError(reason: String(cString: strerror(errno)))
        }
    }
}
