import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The board's HTTP client: owns its `URLSession`, adds the bearer token to every call and, on a
/// `401`, renews the tokens (``RefreshStrategy``) and sends the call once more. A refused refresh
/// ends the session, reported to the main actor.
public actor APIClient {
    /// Called on the main actor when the session ended.
    public typealias SessionEndedHandler = @MainActor @Sendable () -> Void

    /// An answer the screens read.
    public struct Response: Sendable, Hashable {
        /// The status (2xx; refusals are thrown).
        public var status: Int
        /// The body.
        public var body: Data
    }

    private let session: URLSession
    private let baseURL: URL
    private let strategy: RefreshStrategy
    private var tokens: AuthTokens?
    private var refreshInFlight: Task<AuthTokens, any Error>?
    private var onSessionEnded: SessionEndedHandler?

    /// Creates a client over a session of its own, built from `configuration`.
    public init(configuration: URLSessionConfiguration, baseURL: URL, tokens: AuthTokens?, strategy: RefreshStrategy = .shared) {
        session = URLSession(configuration: configuration)
        self.baseURL = baseURL
        self.tokens = tokens
        self.strategy = strategy
    }

    /// Registers what the main actor does when the session ends.
    public func setSessionEnded(_ handler: @escaping SessionEndedHandler) { onSessionEnded = handler }

    /// Whether a session is stored.
    public var isSignedIn: Bool { tokens != nil }

    // MARK: Session

    /// `POST /auth/login`: stores the pair it hands out and returns the account.
    public func signIn(email: String, password: String) async throws -> Account {
        let body = JSONBody.encode(["email": email, "password": password])
        let answer = try await load(APIRequest("POST", "/auth/login", body: body), bearer: nil)
        guard (200..<300).contains(answer.status) else {
            throw answer.status == 401 ? TaskBoardError.badCredentials : TaskBoardError.server(status: answer.status)
        }
        guard let signIn = try? JSONDecoder().decode(SignInBody.self, from: answer.body) else { throw TaskBoardError.badBody }
        tokens = AuthTokens(access: signIn.accessToken, refresh: signIn.refreshToken)
        return signIn.user
    }

    /// `POST /auth/logout`; the tokens are gone afterwards whatever the answer.
    public func signOut() async {
        if let access = tokens?.access { _ = try? await load(APIRequest("POST", "/auth/logout"), bearer: access) }
        forget()
    }

    // MARK: Calls

    /// Sends an authenticated call; a `401` renews the tokens and sends it once more.
    public func send(_ request: APIRequest) async throws -> Response {
        guard let used = tokens else { throw TaskBoardError.signedOut }
        var answer = try await load(request, bearer: used.access)
        if answer.status == 401 {
            let renewed: AuthTokens
            do {
                renewed = try await renewTokens(refused: used)
            } catch {
                await endSession()
                throw TaskBoardError.sessionEnded
            }
            answer = try await load(request, bearer: renewed.access)
            if answer.status == 401 {
                // Refused again with a fresh token: no second refresh, the session is over.
                await endSession()
                throw TaskBoardError.sessionEnded
            }
        }
        guard (200..<300).contains(answer.status) else { throw TaskBoardError.server(status: answer.status) }
        return Response(status: answer.status, body: answer.body)
    }

    // MARK: The 401 interceptor

    /// New tokens after `refused` was refused, as the strategy renews them.
    private func renewTokens(refused: AuthTokens) async throws -> AuthTokens {
        switch strategy {
        case .perRequest:
            return try await refresh(with: refused.refresh)
        case .shared:
            // No suspension between these checks and storing the task: every caller that
            // arrives while it runs finds it.
            if let tokens, tokens.access != refused.access { return tokens }
            if let refreshInFlight { return try await refreshInFlight.value }
            guard tokens != nil else { throw TaskBoardError.sessionEnded }
            let task = Task { try await self.refresh(with: refused.refresh) }
            refreshInFlight = task
            defer { refreshInFlight = nil }
            return try await task.value
        }
    }

    /// `POST /auth/refresh`: stores and returns the rotated pair.
    private func refresh(with refreshToken: String) async throws -> AuthTokens {
        let answer = try await load(
            APIRequest("POST", "/auth/refresh", body: JSONBody.encode(["refresh_token": refreshToken])), bearer: nil)
        guard (200..<300).contains(answer.status), let pair = try? JSONDecoder().decode(TokenBody.self, from: answer.body) else {
            throw TaskBoardError.sessionEnded
        }
        let renewed = AuthTokens(access: pair.accessToken, refresh: pair.refreshToken)
        tokens = renewed
        return renewed
    }

    private func endSession() async {
        forget()
        let handler = onSessionEnded
        await MainActor.run { handler?() }
    }

    private func forget() {
        tokens = nil
        refreshInFlight = nil
    }

    // MARK: Wire

    private func load(_ request: APIRequest, bearer: String?) async throws -> (status: Int, body: Data) {
        var components = URLComponents(url: baseURL.appendingPathComponent(request.path), resolvingAgainstBaseURL: false)
        if !request.query.isEmpty { components?.queryItems = request.query }
        guard let url = components?.url else { throw TaskBoardError.network }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        if let bearer { urlRequest.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw TaskBoardError.network
        }
        guard let http = response as? HTTPURLResponse else { throw TaskBoardError.network }
        return (http.statusCode, data)
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
    var accessToken: String
    var refreshToken: String
    var user: Account
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case user
    }
}
