import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's HTTP client, written with completion handlers and queues: it adds the bearer token,
/// shares one refresh among every call that hit an expired token, backs off on 429/503 as
/// `Retry-After` says, and tells its delegate about a blocked account or an ended session.
///
/// Threading: the token and every decision live on a private serial queue; the refresh list on
/// the refresher's own queue; every completion and every delegate call is delivered with
/// `DispatchQueue.main.async`.
public final class APIClient: @unchecked Sendable {
    /// A completion, always called on the main queue.
    public typealias Completion<Value> = @Sendable (Result<Value, APIError>) -> Void

    /// A successful answer.
    public struct Response: Sendable, Hashable {
        /// The HTTP status (2xx or 3xx).
        public var status: Int
        /// The body bytes.
        public var body: Data
        /// How many times the request was sent because of backoff (1 when it went through at once).
        public var attempts: Int
    }

    /// At most this many sends per call when the server answers 429 or 503.
    public static let maxAttempts = 3
    /// A `Retry-After` longer than this (seconds) is surfaced instead of waited out.
    public static let longestWait = 60

    /// Set and read on the main queue; the client calls it there.
    public weak var delegate: (any APIClientDelegate)?

    let loader: any HTTPLoading
    let baseURL: URL
    let now: @Sendable () -> Date
    // `tokens` is only read and written on `queue`.
    private let queue = DispatchQueue(label: "DispatchApp.APIClient")
    private var tokens: SessionTokens?
    private let refresher = TokenRefresher()

    /// Creates a client over a loader, usually a `URLSession`.
    /// - Parameter now: wall-clock time, for `Retry-After` given as an HTTP-date.
    public init(loader: any HTTPLoading, baseURL: URL, tokens: SessionTokens?, now: @escaping @Sendable () -> Date = { Date() }) {
        self.loader = loader
        self.baseURL = baseURL
        self.tokens = tokens
        self.now = now
    }

    /// Creates a client that owns a `URLSession` built from `configuration`.
    public convenience init(
        configuration: URLSessionConfiguration, baseURL: URL, tokens: SessionTokens?, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(loader: URLSession(configuration: configuration), baseURL: baseURL, tokens: tokens, now: now)
    }

    /// Whether an access token is stored.
    public var isSignedIn: Bool { queue.sync { tokens != nil } }
    /// Whether a refresh token is stored.
    public var hasRefreshToken: Bool { queue.sync { tokens?.refresh != nil } }

    /// Forgets both tokens.
    public func clearTokens() {
        queue.async { self.tokens = nil }
    }

    // MARK: Calls

    /// `POST /auth/login`; stores the tokens and answers the user.
    public func login(email: String, password: String, completion: @escaping Completion<AppUser>) {
        load("POST", "/auth/login", body: Self.encode(["email": email, "password": password]), bearer: nil) { answer in
            self.queue.async {
                switch answer {
                case .failure(let error):
                    self.deliver(.failure(error), to: completion)
                case .success(let reply) where !(200..<300).contains(reply.status):
                    self.deliver(.failure(self.failure(reply)), to: completion)
                case .success(let reply):
                    guard let signIn = Self.decode(SignIn.self, from: reply.body) else {
                        return self.deliver(.failure(.badBody), to: completion)
                    }
                    self.tokens = SessionTokens(access: signIn.accessToken, refresh: signIn.refreshToken)
                    self.deliver(.success(signIn.user), to: completion)
                }
            }
        }
    }

    /// `POST /auth/logout` when signed in; the tokens are gone afterwards whatever the answer.
    public func logout(completion: @escaping @Sendable () -> Void) {
        queue.async {
            guard let access = self.tokens?.access else {
                return DispatchQueue.main.async { completion() }
            }
            self.load("POST", "/auth/logout", body: nil, bearer: access) { _ in
                self.queue.async {
                    self.tokens = nil
                    DispatchQueue.main.async { completion() }
                }
            }
        }
    }

    /// `GET /users/me`.
    public func currentUser(completion: @escaping Completion<AppUser>) {
        send("GET", "/users/me") { result in
            completion(
                result.flatMap { response in
                    Self.decode(AppUser.self, from: response.body).map { .success($0) } ?? .failure(.badBody)
                })
        }
    }

    /// `GET /health`, unauthenticated and never retried: `true` for a 2xx answer.
    public func checkHealth(completion: @escaping @Sendable (Bool) -> Void) {
        load("GET", "/health", body: nil, bearer: nil) { answer in
            let healthy = (try? answer.get()).map { (200..<300).contains($0.status) } ?? false
            DispatchQueue.main.async { completion(healthy) }
        }
    }

    /// Any authenticated call, with one shared refresh on an expired token and backoff on 429/503.
    public func send(_ method: String, _ path: String, body: Data? = nil, completion: @escaping Completion<Response>) {
        queue.async { self.perform(Call(method: method, path: path, body: body, completion: completion)) }
    }

    // MARK: The pipeline (all on `queue`)

    private struct Call: Sendable {
        var method: String
        var path: String
        var body: Data?
        var completion: Completion<Response>
        /// Sends so far because of backoff.
        var attempt = 1
        /// Whether this call was already repeated after a refresh.
        var refreshed = false

        /// The same call, to be repeated with a refreshed token.
        var afterRefresh: Call {
            var again = self
            again.refreshed = true
            return again
        }

        /// The same call, to be sent once more after a backoff.
        var nextAttempt: Call {
            var next = self
            next.attempt += 1
            return next
        }
    }

    private func perform(_ call: Call) {
        guard let access = tokens?.access else { return deliver(.failure(.notSignedIn), to: call.completion) }
        load(call.method, call.path, body: call.body, bearer: access) { answer in
            self.queue.async { self.handle(answer, of: call, sentWith: access) }
        }
    }

    private func handle(_ answer: Result<Reply, APIError>, of call: Call, sentWith used: String) {
        let reply: Reply
        switch answer {
        case .failure(let error): return deliver(.failure(error), to: call.completion)
        case .success(let answered): reply = answered
        }
        switch reply.status {
        case 401:
            if reply.errorCode == "TOKEN_INVALID" || call.refreshed {
                // A dead token, or refused again with a fresh one: no (second) refresh.
                endSession()
                return deliver(.failure(.sessionEnded), to: call.completion)
            }
            refreshThenRepeat(call, used: used)
        case 403:
            forbidden(reply, of: call)
        case 429, 503:
            backOff(reply, of: call)
        case 400...:
            deliver(.failure(failure(reply)), to: call.completion)
        default:
            deliver(.success(Response(status: reply.status, body: reply.body, attempts: call.attempt)), to: call.completion)
        }
    }

    private func refreshThenRepeat(_ call: Call, used: String) {
        let again = call.afterRefresh
        if let tokens, tokens.access != used {
            // Another caller's refresh already answered: repeat with its token.
            return perform(again)
        }
        guard let refreshToken = tokens?.refresh else {
            endSession()
            return deliver(.failure(.sessionEnded), to: call.completion)
        }
        refresher.enqueue(
            { result in
                self.queue.async {
                    switch result {
                    case .success: self.perform(again)
                    case .failure(let error): self.deliver(.failure(error), to: call.completion)
                    }
                }
            },
            startingWith: { done in self.requestNewTokens(with: refreshToken, done) })
    }

    private func requestNewTokens(with refreshToken: String, _ done: @escaping TokenRefresher.Completion) {
        load("POST", "/auth/refresh", body: Self.encode(["refresh_token": refreshToken]), bearer: nil) { answer in
            self.queue.async {
                guard case .success(let reply) = answer, (200..<300).contains(reply.status),
                    let pair = Self.decode(TokenPair.self, from: reply.body)
                else {
                    self.endSession()
                    return done(.failure(.sessionEnded))
                }
                let fresh = SessionTokens(access: pair.accessToken, refresh: pair.refreshToken ?? refreshToken)
                self.tokens = fresh
                done(.success(fresh))
            }
        }
    }

    private func forbidden(_ reply: Reply, of call: Call) {
        switch reply.errorCode {
        case "USER_INACTIVE":
            endSession()
            deliver(.failure(.accountInactive), to: call.completion)
        case "USER_DELETED":
            endSession()
            deliver(.failure(.accountDeleted), to: call.completion)
        default:
            // The delegate decides on the main queue whether this is the session's first block;
            // the caller hears after it did, in the same block.
            DispatchQueue.main.async {
                self.delegate?.apiClientDidDetectBlockedAccount(self)
                call.completion(.failure(.forbidden))
            }
        }
    }

    private func backOff(_ reply: Reply, of call: Call) {
        let advised = RetryAfter.seconds(from: reply.headers["retry-after"], now: now())
        // Without advice, 1 s then 2 s: bounded, so a busy server never sees a loop.
        let wait = advised ?? (1 << (call.attempt - 1))
        guard call.attempt < Self.maxAttempts, wait <= Self.longestWait else {
            let error = failure(reply)
            DispatchQueue.main.async {
                self.delegate?.apiClient(self, didGiveUpOnRateLimit: error)
                call.completion(.failure(error))
            }
            return
        }
        let next = call.nextAttempt
        queue.asyncAfter(deadline: .now() + .seconds(wait)) { self.perform(next) }
    }

    private func endSession() {
        tokens = nil
        DispatchQueue.main.async { self.delegate?.apiClientSessionDidEnd(self) }
    }

    private func deliver<Value: Sendable>(_ result: Result<Value, APIError>, to completion: @escaping Completion<Value>) {
        DispatchQueue.main.async { completion(result) }
    }
}
