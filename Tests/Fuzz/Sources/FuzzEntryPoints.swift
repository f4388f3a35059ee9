// The entry point of `jose-fuzz`: the first command-line argument names the fuzz target, every
// later one is a libFuzzer flag or corpus directory. SwiftPM links an executable target's
// `main` as `<target>_main`, so that is the symbol defined here; it hands the remaining
// arguments to libFuzzer's driver.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LibFuzzerDriver

/// The target chosen by the first argument; set once, before libFuzzer starts.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// `main`: picks the fuzz target named by `argv[1]`, drops that argument, runs libFuzzer.
///
/// - Returns: libFuzzer's exit status; 2 with the target list on a missing or unknown name.
@_cdecl("jose_fuzz_main")
public func joseFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let names = FuzzTarget.all.map(\.name).joined(separator: " ")
    guard argc >= 2, let argument = argv[1] else {
        printToStandardError("usage: jose-fuzz TARGET [libFuzzer flags] [CORPUS_DIR...]\ntargets: \(names)\n")
        return 2
    }
    let name = String(cString: argument)
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        printToStandardError("jose-fuzz: unknown target '\(name)'; targets: \(names)\n")
        return 2
    }
    selectedTarget = target
    for index in 1..<Int(argc) { argv[index] = argv[index + 1] }  // argv[argc] is NULL
    var count = argc - 1
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}

/// Runs the selected target on one input. A broken property calls `abort()` inside the target.
///
/// Exported under libFuzzer's name too: the runtime archive's own `main` object is linked
/// (though `jose_fuzz_main` is the `main` that runs) and references this symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?.run(bytes)
    return 0
}
