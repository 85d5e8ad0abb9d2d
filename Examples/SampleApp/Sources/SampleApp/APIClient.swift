import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's HTTP client: adds the bearer token, refreshes it once for every caller that hit an
/// expired token, backs off on 429/503 as `Retry-After` says, and reports a blocked or ended
/// session to the main actor.
public actor APIClient {
    /// Called on the main actor for a 403 that means "blocked"; returns whether this call handled it.
    public typealias BlockedHandler = @MainActor @Sendable () -> Bool
    /// Called on the main actor when the session ended (refresh failed, token refused).
    public typealias SessionEndedHandler = @MainActor @Sendable () -> Void

    /// A successful answer.
    public struct Response: Sendable, Hashable {
        /// The HTTP status (2xx-4xx other than those the client handles itself).
        public var status: Int
        /// The body bytes.
        public var body: Data
        /// How many times the request was sent because of backoff (1 when it went through at once).
        public var attempts: Int
    }

    /// At most this many sends per call when the server answers 429 or 503.
    public static let maxAttempts = 3
    /// A Retry-After longer than this is surfaced to the caller instead of waited out.
    public static let longestWait = 60

    private let loader: any HTTPDataLoading
    private let baseURL: URL
    private let now: @Sendable () -> Date
    private var tokens: SessionTokens?
    private var refreshTask: Task<SessionTokens, any Error>?
    private var onBlocked: BlockedHandler?
    private var onSessionEnded: SessionEndedHandler?

    /// Creates a client over a loader, usually `URLSession(configuration:)`.
    public init(
        loader: any HTTPDataLoading, baseURL: URL, tokens: SessionTokens?, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.loader = loader
        self.baseURL = baseURL
        self.tokens = tokens
        self.now = now
    }

    /// Creates a client that owns a `URLSession` built from `configuration`.
    public init(
        configuration: URLSessionConfiguration, baseURL: URL, tokens: SessionTokens?, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(loader: URLSession(configuration: configuration), baseURL: baseURL, tokens: tokens, now: now)
    }

    /// Registers what the main actor does when the account is blocked or the session ends.
    public func setHandlers(blocked: @escaping BlockedHandler, sessionEnded: @escaping SessionEndedHandler) {
        onBlocked = blocked
        onSessionEnded = sessionEnded
    }

    /// Whether an access token is stored.
    public var isSignedIn: Bool { tokens != nil }
    /// Whether a refresh token is stored.
    public var hasRefreshToken: Bool { tokens?.refresh != nil }

    /// Forgets both tokens.
    public func clearTokens() {
        tokens = nil
        refreshTask = nil
    }

    // MARK: Calls

    /// `POST /auth/login`; stores the tokens and returns the user.
    public func login(email: String, password: String) async throws -> AppUser {
        let body = try Self.encode(["email": email, "password": password])
        let (status, data, headers) = try await load("POST", "/auth/login", body: body, bearer: nil)
        guard (200..<300).contains(status) else { throw Self.failure(status, data, headers, now: now()) }
        guard let signIn = try? JSONDecoder().decode(Envelope<SignIn>.self, from: data).data else { throw APIError.badBody }
        tokens = SessionTokens(access: signIn.accessToken, refresh: signIn.refreshToken)
        return signIn.user
    }

    /// `POST /auth/logout` when signed in; the tokens are gone afterwards whatever the answer.
    public func logout() async {
        if let access = tokens?.access {
            _ = try? await load("POST", "/auth/logout", body: nil, bearer: access)
        }
        clearTokens()
    }

    /// `GET /users/me`.
    public func currentUser() async throws -> AppUser {
        let response = try await send("GET", "/users/me")
        guard let user = try? JSONDecoder().decode(Envelope<AppUser>.self, from: response.body).data else { throw APIError.badBody }
        return user
    }

    /// Any authenticated call, with refresh on an expired token and backoff on 429/503.
    public func send(_ method: String, _ path: String, body: Data? = nil) async throws -> Response {
        var attempt = 1
        while true {
            let (status, data, headers) = try await sendAuthorized(method, path, body: body)
            if status == 429 || status == 503 {
                let advised = RetryAfter.seconds(from: headers["retry-after"], now: now())
                // Without advice, wait 1 s then 2 s: bounded, so a busy server never sees a loop.
                let wait = advised ?? (1 << (attempt - 1))
                guard attempt < Self.maxAttempts, wait <= Self.longestWait else {
                    throw APIError.rateLimited(retryAfter: advised, status: status)
                }
                try await Task.sleep(for: .seconds(wait))
                attempt += 1
                continue
            }
            guard status < 400 else { throw Self.failure(status, data, headers, now: now()) }
            return Response(status: status, body: data, attempts: attempt)
        }
    }

    // MARK: Tokens

    private func sendAuthorized(_ method: String, _ path: String, body: Data?) async throws -> (Int, Data, [String: String]) {
        guard let used = tokens?.access else { throw APIError.notSignedIn }
        var answer = try await load(method, path, body: body, bearer: used)
        if answer.0 == 401 {
            if Self.errorCode(answer.1) == "TOKEN_INVALID" {
                await endSession()
                throw APIError.sessionEnded
            }
            let fresh = try await refreshedTokens(replacing: used)
            answer = try await load(method, path, body: body, bearer: fresh.access)
            if answer.0 == 401 {
                // Refused again with a fresh token: the session is over, no second refresh.
                await endSession()
                throw APIError.sessionEnded
            }
        }
        if answer.0 == 403 { try await handleForbidden(answer.1) }
        return answer
    }

    /// New tokens after `used` was refused: the ones another caller already got, the refresh in
    /// flight, or a refresh started here that every later caller shares.
    private func refreshedTokens(replacing used: String) async throws -> SessionTokens {
        if let tokens, tokens.access != used { return tokens }
        if let refreshTask { return try await refreshTask.value }
        guard let refresh = tokens?.refresh else {
            await endSession()
            throw APIError.sessionEnded
        }
        let task = Task { try await self.refresh(with: refresh) }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    private func refresh(with refreshToken: String) async throws -> SessionTokens {
        let body = try Self.encode(["refresh_token": refreshToken])
        let answer = try? await load("POST", "/auth/refresh", body: body, bearer: nil)
        guard let answer, (200..<300).contains(answer.0),
            let pair = try? JSONDecoder().decode(Envelope<TokenPair>.self, from: answer.1).data
        else {
            await endSession()
            throw APIError.sessionEnded
        }
        let fresh = SessionTokens(access: pair.accessToken, refresh: pair.refreshToken ?? refreshToken)
        tokens = fresh
        return fresh
    }

    private func handleForbidden(_ body: Data) async throws {
        switch Self.errorCode(body) {
        case "USER_INACTIVE":
            await endSession()
            throw APIError.accountInactive
        case "USER_DELETED":
            await endSession()
            throw APIError.accountDeleted
        default:
            let handler = onBlocked
            let handledHere = await MainActor.run { handler?() ?? false }
            if handledHere { clearTokens() }
            throw APIError.forbidden
        }
    }

    private func endSession() async {
        clearTokens()
        let handler = onSessionEnded
        await MainActor.run { handler?() }
    }

    // MARK: Wire

    private func load(_ method: String, _ path: String, body: Data?, bearer: String?) async throws -> (Int, Data, [String: String]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await loader.data(for: request)
        } catch {
            throw APIError.network
        }
        guard let http = response as? HTTPURLResponse else { throw APIError.network }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return (http.statusCode, data, headers)
    }

    private static func failure(_ status: Int, _ body: Data, _ headers: [String: String], now: Date) -> APIError {
        if status == 429 || status == 503 {
            return .rateLimited(retryAfter: RetryAfter.seconds(from: headers["retry-after"], now: now), status: status)
        }
        return .server(status: status, code: errorCode(body))
    }

    // Sorted keys: a dictionary's order changes from one instance to the next, a request body must not.
    private static func encode(_ body: [String: String]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(body)
    }

    private static func errorCode(_ body: Data) -> String? {
        (try? JSONDecoder().decode(ErrorBody.self, from: body))?.errorCode
    }
}

// The contract's JSON shapes; every field optional so an odd body decodes to "nothing usable".
private struct Envelope<Payload: Decodable>: Decodable {
    var data: Payload?
    var errorCode: String?
    enum CodingKeys: String, CodingKey {
        case data
        case errorCode = "error_code"
    }
}

private struct ErrorBody: Decodable {
    var errorCode: String?
    enum CodingKeys: String, CodingKey { case errorCode = "error_code" }
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
