/// Where the registered claims sit in a claims object, found in one pass over its members.
///
/// ``JWTClaimRules`` reads every rule's claim from here instead of looking each name up in the
/// object (a scan of all members per rule). Each position is a token index, −1 when the claim
/// is absent.
///
/// It holds only positions, no reference to the document: the validator passes it around and
/// copies it freely, and a copy must not cost a retain and a release of the document's storage.
/// The values are read from the claims' ``JSONDocument`` with its index-based readers.
struct RegisteredClaims {
    /// `iss`.
    private(set) var issuer = -1
    /// `sub`.
    private(set) var subject = -1
    /// `aud`.
    private(set) var audience = -1
    /// `exp`.
    private(set) var expiration = -1
    /// `nbf`.
    private(set) var notBefore = -1
    /// `iat`.
    private(set) var issuedAt = -1
    /// `auth_time`.
    private(set) var authenticationTime = -1
    /// `azp`.
    private(set) var authorizedParty = -1
    /// `nonce`.
    private(set) var nonce = -1
    /// `jti`.
    private(set) var tokenID = -1

    /// No claims found yet: every position −1 (to be replaced by a found set).
    init() {}

    /// Finds the registered claims of the object at token `object` of `document` (duplicate
    /// names were already rejected by the parser, so each claim appears at most once).
    init(_ document: JSONView, object: Int) {
        var unread = -1
        self.init(document, object: object, alsoFinding: "", at: &unread)
    }

    /// Finds the registered claims, as ``init(_:object:)``, and in the same pass the member named
    /// `other` (not a registered claim), whose position is stored in `otherPosition` when
    /// present (left as it is when absent): a caller that reads one more claim before the rules
    /// run (an issuer registry's `tid`) walks the members once, not twice.
    init(_ document: JSONView, object: Int, alsoFinding other: StaticString, at otherPosition: inout Int) {
        var (iss, sub, aud, exp, nbf, iat, azp, jti, nonce, authTime) = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
        var found = otherPosition
        document.forEachMember(of: object) { name, value in
            switch name.count {
            case 3:
                if JSONStrings.isName(name, "iss") { iss = value }
                else if JSONStrings.isName(name, "sub") { sub = value }
                else if JSONStrings.isName(name, "aud") { aud = value }
                else if JSONStrings.isName(name, "exp") { exp = value }
                else if JSONStrings.isName(name, "nbf") { nbf = value }
                else if JSONStrings.isName(name, "iat") { iat = value }
                else if JSONStrings.isName(name, "azp") { azp = value }
                else if JSONStrings.isName(name, "jti") { jti = value }
                else if JSONStrings.isName(name, other) { found = value }
            case 5 where JSONStrings.isName(name, "nonce"):
                nonce = value
            case 9 where JSONStrings.isName(name, "auth_time"):
                authTime = value
            default:
                if JSONStrings.isName(name, other) { found = value }
            }
        }
        (issuer, subject, audience, expiration, notBefore, issuedAt) = (iss, sub, aud, exp, nbf, iat)
        (authorizedParty, tokenID, self.nonce, authenticationTime) = (azp, jti, nonce, authTime)
        otherPosition = found
    }

    /// Whether the claim named by the UTF-8 `name` is present (a registered claim is answered
    /// from the pass; any other name is looked up among the members of token `object`).
    func contains(_ name: UnsafeBufferPointer<UInt8>, in document: JSONView, object: Int) -> Bool {
        if let position = registeredPosition(of: name) { return position >= 0 }
        var found = false
        document.forEachMember(of: object) { member, _ in
            if !found, JSONStrings.bytesEqual(member, name) { found = true }
        }
        return found
    }

    /// The position found for the registered claim `name`, or nil when `name` is not one.
    private func registeredPosition(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        if JSONStrings.isName(name, "iss") { return issuer }
        if JSONStrings.isName(name, "sub") { return subject }
        if JSONStrings.isName(name, "aud") { return audience }
        if JSONStrings.isName(name, "exp") { return expiration }
        if JSONStrings.isName(name, "nbf") { return notBefore }
        if JSONStrings.isName(name, "iat") { return issuedAt }
        if JSONStrings.isName(name, "auth_time") { return authenticationTime }
        if JSONStrings.isName(name, "azp") { return authorizedParty }
        if JSONStrings.isName(name, "nonce") { return nonce }
        if JSONStrings.isName(name, "jti") { return tokenID }
        return nil
    }
}
