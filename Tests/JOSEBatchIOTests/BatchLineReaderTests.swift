#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JOSETestSupport
import Testing
import JOSEBatchIO

/// `--batch --threads` hands each chunk the reader's buffer with its lines and gives the reader
/// the chunk's old buffer: lines must stay readable in the buffer given away, and a line read
/// across the exchange must come out whole from the new one.
@Suite(.tags(.addressSanitized)) struct BatchLineReaderTests {
    /// A pipe whose write end the test feeds; the reader reads the other end.
    private final class Pipe {
        let readEnd: Int32
        private(set) var writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            #expect(written == bytes.count)
        }

        func closeWriteEnd() {
            close(writeEnd)
            writeEnd = -1
        }

        deinit {
            close(readEnd)
            if writeEnd >= 0 { close(writeEnd) }
        }
    }

    /// A reader that has read all of `text` from a pipe closed after it, and the pipe, whose
    /// read end the reader still reads (to find the end of the input).
    private func readerHavingRead(_ text: String) throws -> (BatchLineReader, Pipe) {
        let pipe = try Pipe()
        let reader = BatchLineReader(descriptor: pipe.readEnd, maximumTokenBytes: 16)
        pipe.send(text)
        pipe.closeWriteEnd()
        try reader.readMore()
        return (reader, pipe)
    }

    private func text(of line: BatchLine, in bytes: UnsafeRawPointer) -> String {
        String(decoding: UnsafeRawBufferPointer(start: bytes + line.offset, count: line.count), as: UTF8.self)
    }

    @Test func linesStayInTheBufferGivenAwayAndALineSplitAcrossTheExchangeComesOutWhole() throws {
        let pipe = try Pipe()
        let reader = BatchLineReader(descriptor: pipe.readEnd, maximumTokenBytes: 16)
        pipe.send("first\r\nsecond\n\nthi")
        try reader.readMore()
        var lines: [BatchLine] = []
        reader.collect(into: &lines, limit: 100)
        #expect(lines.map(\.number) == [1, 2])
        #expect(reader.pendingBytes == 3)

        let fresh = UnsafeMutableRawBufferPointer.allocate(byteCount: reader.bufferBytes, alignment: 16)
        let givenAway = reader.exchangeBuffer(fresh)
        defer { givenAway.deallocate() }
        #expect(reader.bytes == UnsafeRawPointer(fresh.baseAddress!))
        // Overwriting what the reader now reads into leaves the lines given away untouched.
        pipe.send("rd\n")
        pipe.closeWriteEnd()
        try reader.readMore()
        #expect(lines.map { text(of: $0, in: givenAway.baseAddress!) } == ["first", "second"])

        var more: [BatchLine] = []
        reader.collect(into: &more, limit: 100)
        try reader.readMore()
        reader.collect(into: &more, limit: 100)
        #expect(reader.atEnd)
        #expect(more.map(\.number) == [4])
        #expect(more.map { text(of: $0, in: reader.bytes) } == ["third"])
    }

    @Test func completeLinesLeftOverAtTheLineLimitAreCarriedIntoTheNewBuffer() throws {
        let (reader, pipe) = try readerHavingRead("a1\nb22\nc333\nd4444\ne5")
        defer { withExtendedLifetime(pipe) {} }
        var lines: [BatchLine] = []
        reader.collect(into: &lines, limit: 2)
        let fresh = UnsafeMutableRawBufferPointer.allocate(byteCount: reader.bufferBytes, alignment: 16)
        let givenAway = reader.exchangeBuffer(fresh)
        defer { givenAway.deallocate() }
        #expect(lines.map { text(of: $0, in: givenAway.baseAddress!) } == ["a1", "b22"])

        var more: [BatchLine] = []
        try reader.readMore()
        reader.collect(into: &more, limit: 100)
        #expect(reader.atEnd)
        #expect(more.map(\.number) == [3, 4, 5])
        #expect(more.map { text(of: $0, in: reader.bytes) } == ["c333", "d4444", "e5"])
    }

    @Test func aLineFoundTooLongBeforeTheExchangeIsStillReportedOverLongAfterIt() throws {
        let pipe = try Pipe()
        let reader = BatchLineReader(descriptor: pipe.readEnd, maximumTokenBytes: 16)
        pipe.send("ok\n" + String(repeating: "x", count: 40))
        try reader.readMore()
        var lines: [BatchLine] = []
        reader.collect(into: &lines, limit: 100)
        #expect(lines.map(\.count) == [2])

        let fresh = UnsafeMutableRawBufferPointer.allocate(byteCount: reader.bufferBytes, alignment: 16)
        reader.exchangeBuffer(fresh).deallocate()
        pipe.send(String(repeating: "x", count: 40) + "\nlast\n")
        pipe.closeWriteEnd()
        var more: [BatchLine] = []
        while !reader.atEnd {
            try reader.readMore()
            reader.collect(into: &more, limit: 100)
        }
        #expect(more.map(\.number) == [2, 3])
        #expect(more.map(\.count) == [BatchLine.overLong, 4])
        #expect(text(of: more[1], in: reader.bytes) == "last")
    }

    @Test func aByteLimitEndsACollectionAtTheFirstLineThatReachesIt() throws {
        let (reader, pipe) = try readerHavingRead("a1\nb22\nc333\nd4444\n")
        defer { withExtendedLifetime(pipe) {} }
        var lines: [BatchLine] = []
        // "a1\n" is 3 bytes and "b22\n" 4: the limit of 5 is reached with the second line.
        reader.collect(into: &lines, limit: 100, byteLimit: 5)
        #expect(lines.map { text(of: $0, in: reader.bytes) } == ["a1", "b22"])
        // Each call counts its own bytes; a line limit still ends a collection first.
        reader.collect(into: &lines, limit: 3, byteLimit: 100)
        #expect(lines.map { text(of: $0, in: reader.bytes) } == ["a1", "b22", "c333"])
        reader.collect(into: &lines, limit: 100, byteLimit: 1)
        #expect(lines.map(\.number) == [1, 2, 3, 4])
    }

    @Test func aRegularFileIsMappedFromTheDescriptorsOffsetAndSplitLikeAReadOne() throws {
        let path = "\(NSTemporaryDirectory())batch-line-reader-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        let text = "skipped\nfirst\r\nsecond\n\n" + String(repeating: "x", count: 17) + "\nlast"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { unlink(path) }
        let file = open(path, O_RDONLY)
        try #require(file >= 0)
        defer { close(file) }
        // A line already read by someone else: the reader starts at the descriptor's offset.
        var skipped = [UInt8](repeating: 0, count: 8)
        #expect(read(file, &skipped, 8) == 8)

        let reader = try #require(BatchLineReader.mappingFile(file, maximumTokenBytes: 16))
        #expect(reader.atEnd)
        #expect(!reader.canReadMoreWithoutBlocking)
        var lines: [BatchLine] = []
        reader.collect(into: &lines, limit: 100)
        #expect(lines.map(\.number) == [1, 2, 4, 5])
        #expect(lines.map(\.count) == [5, 6, BatchLine.overLong, 4])
        #expect([lines[0], lines[1], lines[3]].map { self.text(of: $0, in: reader.bytes) } == ["first", "second", "last"])
        // The descriptor is left at the end, as reading to the end would have left it.
        #expect(lseek(file, 0, SEEK_CUR) == off_t(text.utf8.count))

        // Nothing left after the offset, or not a regular file: no mapping.
        #expect(BatchLineReader.mappingFile(file, maximumTokenBytes: 16) == nil)
        let pipe = try Pipe()
        pipe.send("a\n")
        #expect(BatchLineReader.mappingFile(pipe.readEnd, maximumTokenBytes: 16) == nil)
    }
}
