import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The api client's delegate: adds the bearer token, reads statuses per the contract, and
/// decides what each failure of an authenticated call leads to: a shared refresh and one more
/// attempt (401), a wait as `Retry-After` says (429/503), the blocked-account handling (403),
/// the end of the session (refused again, `TOKEN_INVALID`, account gone).
public struct AppClientPolicy: APIClientDelegate {
    /// At most this many sends per call when the server answers 429 or 503.
    public static let maxRateLimitedAttempts = 3
    /// A wait longer than this (seconds) is shown to the user instead of slept through.
    public static let longestWait = 60

    private let credentials: RefreshCoalescer
    private let events: SessionEvents
    private let now: @Sendable () -> Date

    init(credentials: RefreshCoalescer, events: SessionEvents, now: @escaping @Sendable () -> Date) {
        self.credentials = credentials
        self.events = events
        self.now = now
    }

    /// Adds `Authorization: Bearer <current access token>` to authenticated calls.
    public func willSendRequest(_ request: inout URLRequest, for call: APIRequest, client: APIClient) async throws(APIError) {
        guard call.isAuthenticated else { return }
        guard let access = await credentials.accessToken else { throw .notSignedIn }
        request.setValue("Bearer \(access)", forHTTPHeaderField: "Authorization")
    }

    /// Anything outside 2xx is an error, `Retry-After` dates read against the injected clock.
    public func validateResponse(_ response: HTTPURLResponse, data: Data, for call: APIRequest, client: APIClient) throws(APIError) {
        guard (200..<300).contains(response.statusCode) else {
            throw APIError(status: response.statusCode, body: data, headers: APIClient.headers(of: response), now: now())
        }
    }

    /// The app's failure policy for authenticated calls; anything else is not retried.
    public func shouldClientRetry(_ call: APIRequest, after failure: APIFailure, client: APIClient) async throws(APIError) -> Bool {
        guard call.isAuthenticated else { return false }
        switch failure.error {
        case .unauthorized(let code):
            return try await retryUnauthorized(code: code, failure: failure)
        case .forbidden:
            await events.accountBlocked()
            return false
        case .accountInactive, .accountDeleted:
            await events.sessionEnded()
            return false
        case .rateLimited(let status, let retryAfter, let message):
            return await waitForRateLimit(status: status, retryAfter: retryAfter, message: message, attempts: failure.attempts)
        default:
            return false
        }
    }

    private func retryUnauthorized(code: String?, failure: APIFailure) async throws(APIError) -> Bool {
        let refusedBefore = failure.earlierErrors.contains { if case .unauthorized = $0 { true } else { false } }
        // A dead token, or a 401 again after the retry with a fresh one: the session is over.
        guard code != "TOKEN_INVALID", !refusedBefore else {
            await events.sessionEnded()
            throw .sessionEnded
        }
        let sentWith = failure.sentRequest.value(forHTTPHeaderField: "Authorization").map { String($0.dropFirst("Bearer ".count)) }
        do {
            _ = try await credentials.accessToken(replacing: sentWith)
        } catch {
            await events.sessionEnded()
            throw error
        }
        // willSendRequest puts the current token on the next attempt.
        return true
    }

    private func waitForRateLimit(status: Int, retryAfter: Int?, message: String?, attempts: Int) async -> Bool {
        // Without advice, 1 s then 2 s: bounded, so a busy server never sees a loop.
        let wait = retryAfter ?? (1 << (attempts - 1))
        if wait > Self.longestWait {
            await events.rateLimited(message: message)
            return false
        }
        guard attempts < Self.maxRateLimitedAttempts else { return false }
        do {
            try await Task.sleep(for: .seconds(wait))
        } catch {
            return false
        }
        return true
    }
}
