import JOSETestSupport
import Testing
@testable import JOSE

/// The one pass over a claims object that finds the registered claims (and, for an issuer
/// registry, one other member such as `tid`).
@Suite(.tags(.addressSanitized)) struct RegisteredClaimsTests {
    /// The registered claims of `json`, and the position found for `other` (starting from −1).
    private func find(_ json: String, alsoFinding other: StaticString) throws -> (RegisteredClaims, Int, JSONDocument) {
        let document = try JSONDocument(bytes: Array(json.utf8))
        var otherPosition = -1
        let registered = document.withView {
            RegisteredClaims($0, object: document.rootIndex, alsoFinding: other, at: &otherPosition)
        }
        return (registered, otherPosition, document)
    }

    @Test func theOtherMemberIsFoundBesideTheRegisteredOnes() throws {
        let json = #"{"iss":"https://i.example","tid":"t-1","aud":"a","nonce":"n","auth_time":5,"x_long_name":1}"#
        let (registered, tenantID, document) = try find(json, alsoFinding: "tid")
        // Required first: reading a position of −1 would trap, not fail.
        try #require(registered.issuer >= 0 && registered.audience >= 0 && registered.nonce >= 0)
        try #require(registered.authenticationTime >= 0 && tenantID >= 0)
        #expect(document.string(at: registered.issuer) == "https://i.example")
        #expect(document.string(at: registered.audience) == "a")
        #expect(document.string(at: registered.nonce) == "n")
        #expect(document.integer(at: registered.authenticationTime) == 5)
        #expect(document.string(at: tenantID) == "t-1")
        #expect(registered.subject == -1 && registered.expiration == -1)
    }

    @Test(arguments: ["tid", "nonc", "noncx", "auth_timx", "x_long_name"] as [StaticString])
    func anOtherNameOfAnyLengthIsFound(_ other: StaticString) throws {
        // Each value repeats its member's name, so the value found names the member it belongs to.
        let json = #"{"nonce":"nonce","auth_time":1,"tid":"tid","nonc":"nonc","noncx":"noncx","auth_timx":"auth_timx","x_long_name":"x_long_name"}"#
        let (registered, position, document) = try find(json, alsoFinding: other)
        try #require(position >= 0 && registered.nonce >= 0 && registered.authenticationTime >= 0)
        #expect(document.string(at: position) == other.description)
        #expect(document.string(at: registered.nonce) == "nonce")
        #expect(document.integer(at: registered.authenticationTime) == 1)
    }

    @Test func anAbsentOtherMemberLeavesThePositionAlone() throws {
        let (registered, position, _) = try find(#"{"iss":"i","sub":"s"}"#, alsoFinding: "tid")
        #expect(position == -1)
        #expect(registered.issuer >= 0 && registered.subject >= 0)
    }

    @Test func registeredNamesAreNeverTakenForTheOtherOne() throws {
        // Asked for "iss" as the other name, the pass still files `iss` as the issuer.
        let (registered, position, _) = try find(#"{"iss":"i"}"#, alsoFinding: "iss")
        #expect(registered.issuer >= 0)
        #expect(position == -1)
    }
}
