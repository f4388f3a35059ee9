#if canImport(Security)
import Security

extension KeychainSessionStore {
    /// When a Keychain item can be read (`kSecAttrAccessible`). An item with one that ends in
    /// `ThisDeviceOnly` never moves to another device, not even through a backup restored there.
    public enum Accessibility: Sendable, Hashable {
        /// After the device's first unlock since it started, until it restarts: background
        /// refreshes work while the device is locked. The default.
        case afterFirstUnlock
        /// As ``afterFirstUnlock``, and the item stays on this device.
        case afterFirstUnlockThisDeviceOnly
        /// Only while the device is unlocked.
        case whenUnlocked
        /// As ``whenUnlocked``, and the item stays on this device.
        case whenUnlockedThisDeviceOnly
        /// Only while the device is unlocked and has a passcode; the item is deleted when the
        /// passcode is removed, and stays on this device.
        case whenPasscodeSetThisDeviceOnly

        /// The `kSecAttrAccessible` value.
        var attributeValue: CFString {
            switch self {
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            }
        }
    }
}
#endif
