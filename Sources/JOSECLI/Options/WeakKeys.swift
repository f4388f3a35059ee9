import JOSE

/// `--allow-weak-keys`: the library's ``JOSE/KeyPolicy/allowingWeakKeys`` and the warning
/// printed on every run that asks for it.
enum WeakKeys {
    /// The key policy for a command: the default, or the weak one when `allowed`.
    static func policy(allowed: Bool) -> KeyPolicy {
        allowed ? .allowingWeakKeys : .default
    }

    /// Prints the warning on stderr.
    static func warn() {
        Console.err(Console.paint("WARNING", .red) + ": --allow-weak-keys: HMAC secrets down to 1 byte and RSA keys "
                    + "down to 1024 bits are accepted. Such keys can be guessed or broken; a token they verify or "
                    + "sign proves NOTHING. For debugging legacy systems only, never in production.")
    }
}

extension KeySourceOptions {
    /// The key policy `--allow-weak-keys` asks for.
    var keyPolicy: KeyPolicy { WeakKeys.policy(allowed: allowWeakKeys) }
}
