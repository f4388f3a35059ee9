/// Where the registered claims sit in a claims object, found in one pass over its members.
///
/// ``JWTValidator`` reads every rule's claim from here instead of looking each name up in the
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

    /// Finds the registered claims of `json` (a parsed JSON object; duplicate names were already
    /// rejected by the parser, so each claim appears at most once).
    init(_ json: JSONValue) {
        var (iss, sub, aud, exp, nbf, iat, azp, jti, nonce, authTime) = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
        json.forEachMember { name, value in
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
            case 5:
                if JSONStrings.isName(name, "nonce") { nonce = value }
            case 9:
                if JSONStrings.isName(name, "auth_time") { authTime = value }
            default:
                break
            }
        }
        (issuer, subject, audience, expiration, notBefore, issuedAt) = (iss, sub, aud, exp, nbf, iat)
        (authorizedParty, tokenID, self.nonce, authenticationTime) = (azp, jti, nonce, authTime)
    }

    /// Whether the claim `name` is present (a registered claim is answered from the pass; any
    /// other name is looked up in `json`, the object these positions were found in).
    func contains(_ name: String, in json: JSONValue) -> Bool {
        switch name {
        case "iss": return issuer >= 0
        case "sub": return subject >= 0
        case "aud": return audience >= 0
        case "exp": return expiration >= 0
        case "nbf": return notBefore >= 0
        case "iat": return issuedAt >= 0
        case "auth_time": return authenticationTime >= 0
        case "azp": return authorizedParty >= 0
        case "nonce": return nonce >= 0
        case "jti": return tokenID >= 0
        default: return json.memberIndex(name) != nil
        }
    }
}
