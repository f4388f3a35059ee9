// The memory one URLSessionHTTPFetcher keeps over many fetches: the resident set after a
// warm-up, then every tenth of the run.
//
//   fetch-footprint URL [COUNT]        (COUNT: 10000 unless given)
//
// What keeps the memory is found with heaptrack (Benchmarks/README.md, "Memory per fetch").
#if canImport(Glibc)
import Foundation
import Glibc
import JOSE
import JOSEURLSession

/// The resident set, in KiB (from /proc/self/statm).
func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let url = URL(string: arguments[1]) else {
    print("usage: fetch-footprint URL [COUNT]")
    exit(2)
}
let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let fetcher = URLSessionHTTPFetcher()
let warmUp = max(count / 10, 1)
var baseline = 0
print("fetches  resident (KiB)  growth since warm-up (KiB)  per fetch (bytes)")
for index in 1...count {
    let response = try await fetcher.fetch(HTTPFetchRequest(url: url))
    guard response.statusCode == 200 else {
        print("fetch \(index): status \(response.statusCode)")
        exit(1)
    }
    if index == warmUp { baseline = residentKiB() }
    if index % warmUp == 0 {
        let resident = residentKiB()
        let fetches = index - warmUp
        let perFetch = fetches > 0 ? String(format: "%.1f", Double(resident - baseline) * 1024 / Double(fetches)) : "-"
        print("\(index)  \(resident)  \(resident - baseline)  \(perFetch)")
    }
}
#else
print("fetch-footprint reads /proc: Linux only")
#endif
