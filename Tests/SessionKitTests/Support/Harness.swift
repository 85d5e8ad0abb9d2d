import Foundation
import HTTPCore

@testable import SessionKit

/// A stack wired to a fake transport, a manual clock and in-memory stores.
struct Harness {
    /// 2027-01-15 08:00:00 UTC: every test's wall time.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let user: JSONValue = ["id": "u1", "name": "Ana", "email": "ana@example.com", "active": true, "is_deleted": false]
    static let signedIn = SessionTokens(accessToken: "A1", refreshToken: "R1")

    let transport = FakeTransport()
    let clock = ManualClock()
    let tokenStore: InMemoryTokenStore
    let sessionStore: InMemorySessionStore
    let connectivity: ManualConnectivity
    let stack: SessionStack

    init(
        tokens: SessionTokens? = Harness.signedIn,
        user: SessionUser? = SessionUser(id: "u1", name: "Ana", email: "ana@example.com"),
        online: Bool = true
    ) async {
        tokenStore = InMemoryTokenStore(tokens)
        sessionStore = InMemorySessionStore(SessionRecord(user: user, preferences: ["theme": "dark"]))
        connectivity = ManualConnectivity(online: online)
        stack = await SessionStack(
            environment: SessionEnvironment(
                transport: transport, clock: clock, now: { Harness.now }, tokenStore: tokenStore,
                sessionStore: sessionStore, connectivity: connectivity))
    }

    /// Login-shaped data.
    static func session(access: String, refresh: String, user: JSONValue = Harness.user) -> JSONValue {
        ["access_token": .string(access), "refresh_token": .string(refresh), "expires_in": 3600, "user": user]
    }
}

extension HTTPRequest {
    var authorization: String? { headers[HTTPFields.Name.authorization] }

    var json: JSONValue? { body.flatMap(JSONValue.decode) }
}
