import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The auth endpoints, sent through a client of their own (its own `URLSession`): sign-in,
/// refresh and sign-out never queue behind the app's calls, and never go through the app
/// client's retry policy.
public struct AuthAPI: Sendable {
    /// The auth client.
    public let client: APIClient

    /// Wraps a client whose delegate is an ``AuthClientPolicy``.
    public init(client: APIClient) {
        self.client = client
    }

    /// `POST /auth/login`: the new session's tokens and user.
    public func login(email: String, password: String) async throws(APIError) -> (SessionTokens, AppUser) {
        let response = try await client.send(.json("POST", "/auth/login", ["email": email, "password": password], isAuthenticated: false))
        let signIn = try response.decoded(SignIn.self)
        return (SessionTokens(access: signIn.accessToken, refresh: signIn.refreshToken), signIn.user)
    }

    /// `POST /auth/refresh`: spends `refreshToken` on a new pair (the server rotates both).
    public func refresh(refreshToken: String) async throws(APIError) -> SessionTokens {
        let response = try await client.send(.json("POST", "/auth/refresh", ["refresh_token": refreshToken], isAuthenticated: false))
        let pair = try response.decoded(TokenPair.self)
        return SessionTokens(access: pair.accessToken, refresh: pair.refreshToken ?? refreshToken)
    }

    /// `POST /auth/logout` with the session's last access token; best effort, the answer does
    /// not matter to the local sign-out.
    public func logout(accessToken: String) async {
        _ = try? await client.send(
            APIRequest("POST", "/auth/logout", isAuthenticated: false, headers: ["Authorization": "Bearer \(accessToken)"]))
    }
}

/// The auth client's delegate: no token of its own to add, no retries, statuses read with the
/// injected wall clock (for `Retry-After` dates).
public struct AuthClientPolicy: APIClientDelegate {
    private let now: @Sendable () -> Date

    /// Creates the policy.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Anything outside 2xx is an error.
    public func validateResponse(_ response: HTTPURLResponse, data: Data, for call: APIRequest, client: APIClient) throws(APIError) {
        guard (200..<300).contains(response.statusCode) else {
            throw APIError(status: response.statusCode, body: data, headers: APIClient.headers(of: response), now: now())
        }
    }
}

private struct TokenPair: Decodable {
    var accessToken: String
    var refreshToken: String?
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}

private struct SignIn: Decodable {
    var accessToken: String
    var refreshToken: String?
    var user: AppUser
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case user
    }
}
