#if canImport(Security)
import Foundation
import JOSE
import JOSEOAuth
import Security

/// A `SessionStore` in the Keychain: the session, encoded as JSON, is the data of one
/// generic-password item named by a service and an account.
///
/// Give the same ``accessGroup`` to an app and its extensions (a widget, a share extension) and
/// they share the session; the group must be listed in each one's Keychain Access Groups
/// entitlement. The item is readable after the device's first unlock unless another
/// ``Accessibility`` is chosen; with the `ThisDeviceOnly` ones it never moves to another device,
/// not even through a backup restored there.
///
/// ```swift
/// let store = KeychainSessionStore(service: "com.example.app.login")
/// try await store.save(result.session)
/// // ... after a relaunch ...
/// if let session = try await store.load() { ... }
/// ```
///
/// The Keychain calls can block, so the store's methods run on the global executor, never on the
/// caller's actor.
///
/// - Warning: The store takes no lock across processes (`withExclusiveAccess(_:)` just runs
///   its body). An app and an extension that share the item and refresh at the same moment make
///   one refresh each, and with a provider that rotates refresh tokens the later one is refused
///   (`login_required`). Let one of them refresh, and the others read the stored session.
///
/// On macOS the item goes to the data-protection Keychain (`kSecUseDataProtectionKeychain`),
/// as on iOS, and not to the file-based login Keychain.
public struct KeychainSessionStore: SessionStore {
    /// The item's service (`kSecAttrService`): usually the app's bundle identifier or a name
    /// derived from it.
    public let service: String
    /// The item's account (`kSecAttrAccount`): which session of the service, when an app keeps
    /// several.
    public let account: String
    /// The Keychain access group (`kSecAttrAccessGroup`) shared by an app and its extensions;
    /// `nil` for the app's default group.
    public let accessGroup: String?
    /// When the item can be read.
    public let accessibility: Accessibility

    /// Creates a store for one generic-password item.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account; `session` unless given.
    ///   - accessGroup: The access group to share the item with an app's extensions; the app's
    ///     default group unless given.
    ///   - accessibility: When the item can be read; after the first unlock unless given.
    public init(
        service: String, account: String = "session", accessGroup: String? = nil,
        accessibility: Accessibility = .afterFirstUnlock
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
    }

    /// The stored session, or `nil` when the item does not exist.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the Keychain answers with another
    ///   status than success or "not found" (the message names it), or the item's data is not a
    ///   stored session.
    public func load() async throws -> StoredSession? {
        var query = itemQuery()
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status, "reading")
        guard let data = result as? Data else {
            throw JOSEError(.sessionStoreFailed, "the Keychain item \(itemName) has no data")
        }
        do {
            return try JSONDecoder().decode(StoredSession.self, from: data)
        } catch {
            throw JOSEError(.sessionStoreFailed, "the Keychain item \(itemName) is not a stored session: \(error)")
        }
    }

    /// Stores `session` in the item, replacing what it held, with this store's accessibility.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the Keychain refuses the item (the
    ///   message names the status: a missing entitlement for the access group, a locked device).
    public func save(_ session: StoredSession) async throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(session)
        } catch {
            throw JOSEError(.sessionStoreFailed, "the session cannot be encoded for the Keychain: \(error)")
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: accessibility.attributeValue,
        ]
        let query = itemQuery()
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
            if status == errSecDuplicateItem {
                // Another process (an extension in the same access group) added it meanwhile.
                status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            }
        }
        try check(status, "writing")
    }

    /// Deletes the item; nothing happens when it does not exist.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the Keychain answers with another
    ///   status than success or "not found".
    public func remove() async throws {
        let status = SecItemDelete(itemQuery() as CFDictionary)
        if status == errSecItemNotFound { return }
        try check(status, "deleting")
    }

    /// The attributes that name the item: class, service, account, access group, and on macOS
    /// the data-protection Keychain.
    private func itemQuery() -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        #if os(macOS)
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
        return query
    }

    /// The item as messages name it.
    private var itemName: String {
        "service \(JOSEError.quoted(service)), account \(JOSEError.quoted(account))"
            + (accessGroup.map { ", access group \(JOSEError.quoted($0))" } ?? "")
    }

    /// Throws `session_store_failed` naming `status` unless it is success.
    private func check(_ status: OSStatus, _ doing: String) throws {
        guard status != errSecSuccess else { return }
        let explanation = (SecCopyErrorMessageString(status, nil) as String?).map { ": \($0)" } ?? ""
        throw JOSEError(
            .sessionStoreFailed, "the Keychain failed \(doing) the item \(itemName) (OSStatus \(status)\(explanation))")
    }
}
#endif
