// Stub of Apple's Security framework: only the Keychain-item surface JOSEAppleLogin reaches, with
// the Swift signatures Apple's documentation shows and its availability (SecItem* and the
// generic-password constants since iOS 2 / macOS 10.6 / tvOS 9 / watchOS 2, older than any target
// checked here; kSecUseDataProtectionKeychain macOS 10.15 / iOS 13 / tvOS 13 / watchOS 6;
// SecCopyErrorMessageString iOS 11.3 / tvOS 11.3 / watchOS 4.3 / macOS 10.3).
//
// Not faithful, on purpose: the CoreFoundation types are Swift stand-ins (CFString is String,
// CFDictionary a dictionary, CFTypeRef AnyObject), so `kSecClass as String` and
// `query as CFDictionary` type-check as the toll-free bridging casts they are on Apple platforms,
// but the bridging itself is never exercised.
@_exported import Foundation

public typealias CFString = String
public typealias CFDictionary = [AnyHashable: Any]
public typealias CFTypeRef = AnyObject
public typealias CFBoolean = Bool
public typealias OSStatus = Int32

public var errSecSuccess: OSStatus { 0 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecMissingEntitlement: OSStatus { -34018 }

public let kSecClass: CFString = ""
public let kSecClassGenericPassword: CFString = ""
public let kSecAttrService: CFString = ""
public let kSecAttrAccount: CFString = ""
public let kSecAttrAccessGroup: CFString = ""
public let kSecAttrAccessible: CFString = ""
public let kSecAttrAccessibleWhenUnlocked: CFString = ""
public let kSecAttrAccessibleAfterFirstUnlock: CFString = ""
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = ""
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = ""
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = ""
public let kSecValueData: CFString = ""
public let kSecReturnData: CFString = ""
public let kSecMatchLimit: CFString = ""
public let kSecMatchLimitOne: CFString = ""
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public let kSecUseDataProtectionKeychain: CFString = ""

public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }
@available(macOS 10.3, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? { nil }
