import Foundation

/// The Python that runs the independent implementations the tests compare against (PyJWT,
/// jwcrypto, pyca/cryptography, listed in `Tests/requirements.txt`) and the test servers.
///
/// The README's test command installs them into a virtual environment at `.venv` in the package
/// root (`python3 -m venv .venv && .venv/bin/pip install -r Tests/requirements.txt`), which works
/// with a system Python that refuses `pip install` (PEP 668). That environment's `python3` is used
/// when it exists; otherwise `python3` from `PATH`.
package enum PythonPeers {
    /// The package root (two folders above this file).
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.venv/bin/python3` in the package root, when it exists.
    private static let environmentPython: String? = {
        let path = packageRoot.appendingPathComponent(".venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// The one line every test that needs a missing peer fails with.
    package static let missingPeersMessage =
        "the Python peers in Tests/requirements.txt are not installed: run "
        + "`python3 -m venv .venv && .venv/bin/pip install -r Tests/requirements.txt` in the package root"

    /// The executable and arguments that run Python with `arguments` (a script path or `-c`,
    /// then its arguments), for ``ChildProcess``.
    package static func command(_ arguments: [String]) -> (executable: String, arguments: [String]) {
        if let environmentPython { return (environmentPython, arguments) }
        return ("/usr/bin/env", ["python3"] + arguments)
    }

    /// Runs Python with `arguments` to its end and returns what it wrote.
    ///
    /// - Throws: ``ChildProcess/Failure`` when Python cannot be started or does not end.
    package static func run(_ arguments: [String]) throws -> ChildProcess.Completed {
        let (executable, arguments) = command(arguments)
        return try ChildProcess.run(executable, arguments)
    }

    /// Whether the peers import, checked once per test process.
    private static let installed: Bool = {
        (try? run(["-c", "import jwt, jwcrypto, cryptography"]))?.status == 0
    }()

    /// Throws ``TestHTTPServer/Failure`` with ``missingPeersMessage`` unless the peers import.
    package static func requireInstalled() throws {
        guard installed else { throw TestHTTPServer.Failure(description: missingPeersMessage) }
    }
}

extension PythonPeers {
    /// A certificate chain made by pyca/cryptography (`certificate_chains.py`) for `scenario`.
    package struct CertificateChain: Decodable, Sendable {
        /// The trusted roots, base64 DER.
        package let roots: [String]
        /// The `x5c` chain, leaf first, base64 DER.
        package let x5c: [String]
        /// The leaf's private key, PEM.
        package let key: String
        /// The JWS algorithm of the leaf's key.
        package let alg: String
    }

    /// Runs `certificate_chains.py` for `scenario`.
    ///
    /// - Throws: ``TestHTTPServer/Failure`` when the peers are missing or the script fails.
    package static func certificateChain(_ scenario: String) throws -> CertificateChain {
        try requireInstalled()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("certificate_chains.py").path
        let completed = try run([script, scenario])
        guard completed.status == 0 else {
            throw TestHTTPServer.Failure(description: "certificate_chains.py \(scenario) failed: \(String(decoding: completed.stderr, as: UTF8.self))")
        }
        return try JSONDecoder().decode(CertificateChain.self, from: completed.stdout)
    }
}
