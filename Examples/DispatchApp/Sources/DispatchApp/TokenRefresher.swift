import Foundation

/// Shares one token refresh among every caller whose access token was refused.
///
/// The first caller starts the refresh; callers arriving while it is under way only add their
/// closure to the list. When the refresh answers, everyone on the list is called with the same
/// result, in the order they arrived, and the list starts over empty.
final class TokenRefresher: @unchecked Sendable {
    typealias Completion = @Sendable (Result<SessionTokens, APIError>) -> Void

    // `pending` is only touched on this queue; non-empty means a refresh is under way.
    private let queue = DispatchQueue(label: "DispatchApp.TokenRefresher")
    private var pending: [Completion] = []

    /// Waits for new tokens; `refresh` runs only if no refresh is under way, and must call its
    /// argument exactly once.
    func enqueue(_ completion: @escaping Completion, startingWith refresh: @escaping @Sendable (@escaping Completion) -> Void) {
        queue.async {
            self.pending.append(completion)
            guard self.pending.count == 1 else { return }
            refresh { result in
                self.queue.async {
                    let waiting = self.pending
                    self.pending.removeAll()
                    for waiter in waiting { waiter(result) }
                }
            }
        }
    }
}
