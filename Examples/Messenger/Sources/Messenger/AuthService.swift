import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sign-in, refresh and sign-out, over a `URLSession` of their own.
public struct AuthService: Sendable {
    /// What sign-in hands out.
    public struct SignIn: Sendable, Hashable {
        /// The tokens.
        public var tokens: ChatTokens
        /// The user's id.
        public var userID: String
    }

    private let wire: HTTPWire

    /// Creates the service over a session built from `configuration`.
    public init(configuration: URLSessionConfiguration, baseURL: URL) {
        wire = HTTPWire(session: URLSession(configuration: configuration), baseURL: baseURL)
    }

    /// `POST /auth/login`.
    public func signIn(email: String, password: String) async throws -> SignIn {
        let answer = try await wire.load("POST", "/auth/login", json: ["email": email, "password": password], bearer: nil)
        guard (200..<300).contains(answer.status) else {
            throw answer.status == 401 ? ChatError.badCredentials : ChatError.server(status: answer.status)
        }
        guard let body = try? JSONDecoder().decode(SignInBody.self, from: answer.body) else { throw ChatError.badBody }
        return SignIn(tokens: ChatTokens(access: body.accessToken, refresh: body.refreshToken), userID: body.user.id)
    }

    /// `POST /auth/refresh`: the rotated pair, or ``ChatError/sessionEnded`` when refused.
    public func refresh(_ refreshToken: String) async throws -> ChatTokens {
        let answer = try await wire.load("POST", "/auth/refresh", json: ["refresh_token": refreshToken], bearer: nil)
        guard (200..<300).contains(answer.status), let body = try? JSONDecoder().decode(TokenBody.self, from: answer.body) else {
            throw ChatError.sessionEnded
        }
        return ChatTokens(access: body.accessToken, refresh: body.refreshToken)
    }

    /// `POST /auth/logout`: the backend revokes both tokens; the answer does not matter.
    public func signOut(_ accessToken: String) async {
        _ = try? await wire.load("POST", "/auth/logout", bearer: accessToken)
    }
}

// The contract's JSON shapes.
private struct TokenBody: Decodable {
    var accessToken: String
    var refreshToken: String
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}

private struct SignInBody: Decodable {
    struct User: Decodable {
        var id: String
    }
    var accessToken: String
    var refreshToken: String
    var user: User
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case user
    }
}
