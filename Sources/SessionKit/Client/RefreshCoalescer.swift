/// The state machine that lets concurrent 401s share one token refresh.
///
/// Pure: the owner (``APIClient``) feeds it events and performs the returned actions. It is
/// generic over what a waiting caller is, so the client stores continuations while the tests
/// store plain numbers.
public struct RefreshCoalescer<Waiter> {
    fileprivate enum State {
        case idle
        case refreshing(waiters: [Waiter])
    }

    /// What the owner must do for a caller whose request was refused with a refreshable 401.
    public enum UnauthorizedAction: Equatable {
        /// Another caller already refreshed: repeat the request with this token.
        case retry(withToken: String)
        /// A refresh is under way: suspend and call ``enqueue(_:)``.
        case suspend
        /// This caller refreshes, then calls ``refreshFinished()``.
        case startRefresh
        /// No token is left (the session already ended): fail without a request.
        case fail
    }

    private var state: State = .idle

    /// Creates an idle coalescer.
    public init() {}

    /// Whether a refresh is under way.
    public var isRefreshing: Bool {
        if case .refreshing = state { return true }
        return false
    }

    /// A caller's request, sent with `sentToken`, got a refreshable 401 while the store holds
    /// `currentToken`.
    public mutating func unauthorized(sentToken: String, currentToken: String?) -> UnauthorizedAction {
        guard let currentToken else { return .fail }
        // A newer token means a refresh finished after this request left: reuse its result
        // instead of spending the refresh token a second time.
        if currentToken != sentToken { return .retry(withToken: currentToken) }
        switch state {
        case .refreshing:
            return .suspend
        case .idle:
            state = .refreshing(waiters: [])
            return .startRefresh
        }
    }

    /// The number of callers waiting for the refresh under way.
    public var waiterCount: Int {
        if case .refreshing(let waiters) = state { return waiters.count }
        return 0
    }

    /// Adds a suspended caller; only valid after ``unauthorized(sentToken:currentToken:)``
    /// returned ``UnauthorizedAction/suspend``. Returns `false` (and keeps nothing) otherwise,
    /// so the owner resumes the waiter itself instead of leaking it.
    public mutating func enqueue(_ waiter: Waiter) -> Bool {
        guard case .refreshing(var waiters) = state else { return false }
        waiters.append(waiter)
        state = .refreshing(waiters: waiters)
        return true
    }

    /// The refresh is over (either way): returns the callers to resume, in arrival order.
    public mutating func refreshFinished() -> [Waiter] {
        guard case .refreshing(let waiters) = state else { return [] }
        state = .idle
        return waiters
    }
}

extension RefreshCoalescer: Sendable where Waiter: Sendable {}
extension RefreshCoalescer.State: Sendable where Waiter: Sendable {}
