import Foundation
import HTTPCore

/// The one door to the backend.
///
/// It alone reads and writes tokens: it adds `Authorization`, refreshes an expired token once
/// for all concurrent callers, repeats the refused request exactly once, and tells the session
/// (through the handler set with ``setSessionEndHandler(_:)``) when an answer ends the session:
/// a fatal 401, a block 403, an inactive or deleted account.
public actor APIClient {
    /// Called when an answer ends the session; the handler wipes and changes state.
    public typealias SessionEndHandler = @Sendable (SessionEndReason) async -> Void

    private typealias RefreshWaiter = CheckedContinuation<Result<String, APIError>, Never>

    private let transport: any HTTPTransport
    private let tokenStore: any TokenStore
    private let interpreter: ResponseInterpreter
    private var coalescer = RefreshCoalescer<RefreshWaiter>()
    private var sessionEndHandler: SessionEndHandler?
    /// Advances whenever a session starts or ends (tokens installed or cleared, not refreshed),
    /// so an answer to a request of an earlier session cannot end the current one.
    private var sessionEpoch: UInt64 = 0

    /// Creates a client.
    /// - Parameters:
    ///   - transport: sends the requests.
    ///   - tokenStore: holds the session's tokens; nothing else should touch it.
    ///   - now: wall time, to read `Retry-After` dates.
    public init(
        transport: any HTTPTransport,
        tokenStore: any TokenStore,
        now: @escaping @Sendable () -> Date
    ) {
        self.transport = transport
        self.tokenStore = tokenStore
        self.interpreter = ResponseInterpreter(now: now)
    }

    /// Sets who is told when an answer ends the session.
    public func setSessionEndHandler(_ handler: SessionEndHandler?) {
        sessionEndHandler = handler
    }

    // MARK: Tokens

    /// Stores a new session's tokens.
    public func install(_ tokens: SessionTokens) async throws(APIError) {
        sessionEpoch &+= 1
        do {
            try await tokenStore.save(tokens)
        } catch {
            throw .storageFailed
        }
    }

    /// Removes the stored tokens.
    public func clearTokens() async {
        // A store that cannot delete has nothing better to offer here; the in-memory session
        // is wiped regardless, and the next launch's refresh or /users/me fails closed.
        sessionEpoch &+= 1
        try? await tokenStore.clear()
    }

    /// Which tokens are stored (never their values).
    public func tokenPresence() async -> TokenPresence {
        guard let tokens = await tokenStore.load() else { return .none }
        return TokenPresence(
            hasAccessToken: !tokens.accessToken.isEmpty,
            hasRefreshToken: !(tokens.refreshToken ?? "").isEmpty)
    }

    /// How many callers wait for the refresh under way (tests use it to prove coalescing).
    var refreshWaiterCount: Int { coalescer.waiterCount }

    // MARK: Sending

    /// Sends a call and returns its successful answer.
    /// - Throws: ``APIError`` for every failure, transport errors included.
    public func send(_ endpoint: APIEndpoint) async throws(APIError) -> APIResponse {
        guard endpoint.authenticated else {
            let response = try await transmit(endpoint, token: nil)
            return try await conclude(interpreter.interpret(response, authenticated: false), status: response.status, endingSessionOf: nil)
        }
        let epoch = sessionEpoch
        guard let token = await tokenStore.load()?.accessToken, !token.isEmpty else {
            throw .notAuthenticated
        }
        let response = try await transmit(endpoint, token: token)
        let verdict = interpreter.interpret(response, authenticated: true)

        if endpoint.sessionHandling == .bestEffort {
            // Report the outcome without refreshing or ending anything.
            return try await conclude(verdict, status: response.status, endingSessionOf: nil)
        }
        guard verdict == .refreshableUnauthorized else {
            return try await conclude(verdict, status: response.status, endingSessionOf: epoch)
        }

        let freshToken = try await refreshedToken(after: token, epoch: epoch)
        let retried = try await transmit(endpoint, token: freshToken)
        let retriedVerdict = interpreter.interpret(retried, authenticated: true)
        switch retriedVerdict {
        case .refreshableUnauthorized, .invalidToken:
            // Refused again with a token minted a moment ago: refreshing more would loop.
            await endSession(.sessionExpired, epoch: epoch)
            throw .sessionExpired
        default:
            return try await conclude(retriedVerdict, status: retried.status, endingSessionOf: epoch)
        }
    }

    // MARK: Private

    /// Turns a verdict into the caller's answer. A verdict that ends a session ends the one the
    /// request was sent in (`epoch`), never a later one; a `nil` epoch (unauthenticated and
    /// best-effort calls) reports the verdict and ends nothing.
    private func conclude(
        _ verdict: ResponseInterpreter.Verdict, status: HTTPStatus, endingSessionOf epoch: UInt64?
    ) async throws(APIError) -> APIResponse {
        let reason: SessionEndReason
        switch verdict {
        case .success(let body): return APIResponse(status: status, body: body)
        case .failure(let error): throw error
        case .invalidToken: reason = .tokenInvalid
        case .refreshableUnauthorized: reason = .sessionExpired
        case .blocked: reason = .blocked
        case .accountUnusable(let error): reason = error == .accountDeleted ? .accountDeleted : .accountInactive
        }
        if let epoch { await endSession(reason, epoch: epoch) }
        throw reason.error
    }

    /// A token newer than `sentToken`: from a refresh this caller performs, one it waits for,
    /// or one that already finished.
    private func refreshedToken(after sentToken: String, epoch: UInt64) async throws(APIError) -> String {
        let current = await tokenStore.load()
        // The session this request belonged to is over (a block, a logout, a new sign-in):
        // neither its tokens nor a newer session's may be used to repeat it.
        guard epoch == sessionEpoch else { throw .sessionExpired }
        // No suspension between reading the decision and acting on it: the actor keeps the
        // coalescer consistent for every caller.
        switch coalescer.unauthorized(sentToken: sentToken, currentToken: current?.accessToken) {
        case .retry(let token):
            return token
        case .fail:
            throw .sessionExpired
        case .suspend:
            let result = await withCheckedContinuation { (waiter: RefreshWaiter) in
                if !coalescer.enqueue(waiter) { waiter.resume(returning: .failure(.sessionExpired)) }
            }
            return try result.get()
        case .startRefresh:
            let result = await performRefresh(refreshToken: current?.refreshToken, epoch: epoch)
            if case .failure = result {
                // End the session before waking the others, so that none of them can observe
                // the dead tokens and start over.
                await endSession(.sessionExpired, epoch: epoch)
            }
            for waiter in coalescer.refreshFinished() {
                waiter.resume(returning: result)
            }
            return try result.get()
        }
    }

    private func performRefresh(refreshToken: String?, epoch: UInt64) async -> Result<String, APIError> {
        guard let refreshToken, !refreshToken.isEmpty else { return .failure(.sessionExpired) }
        let response: HTTPResponse
        do {
            response = try await transmit(.refresh(refreshToken: refreshToken), token: nil)
        } catch {
            return .failure(.sessionExpired)
        }
        // Ended while the refresh was away: saving now would bring a wiped session back.
        guard epoch == sessionEpoch else { return .failure(.sessionExpired) }
        guard case .success(let body) = interpreter.interpret(response, authenticated: false),
            let data = body?["data"],
            let access = data["access_token"]?.stringValue, !access.isEmpty
        else { return .failure(.sessionExpired) }
        // A server that does not rotate refresh tokens leaves the old one valid.
        let rotated = data["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        do {
            try await tokenStore.save(SessionTokens(accessToken: access, refreshToken: rotated ?? refreshToken))
        } catch {
            return .failure(.sessionExpired)
        }
        return .success(access)
    }

    private func endSession(_ reason: SessionEndReason, epoch: UInt64) async {
        // A straggler from a session that already ended (and maybe a new one started) must
        // not end the current one: "one handling per session".
        guard epoch == sessionEpoch else { return }
        await sessionEndHandler?(reason)
    }

    private func transmit(_ endpoint: APIEndpoint, token: String?) async throws(APIError) -> HTTPResponse {
        var headers = HTTPFields()
        headers[HTTPFields.Name.accept] = Self.jsonMediaType
        var body: Data?
        if let json = endpoint.body {
            headers[HTTPFields.Name.contentType] = Self.jsonMediaType
            body = json.encoded()
        }
        if let token {
            headers[HTTPFields.Name.authorization] = "Bearer \(token)"
        }
        let request = HTTPRequest(
            method: endpoint.method, path: endpoint.path, query: endpoint.query,
            headers: headers, body: body)
        do {
            return try await transport.send(request)
        } catch let error as TransportError {
            throw .transport(error.code)
        } catch is CancellationError {
            throw .transport(.cancelled)
        } catch {
            throw .transport(.other)
        }
    }

    private static let jsonMediaType = "application/json"
}
