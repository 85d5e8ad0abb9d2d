import Foundation

/// Bridges for a stack written with completion handlers and `DispatchQueue.main.async`: an action
/// calls the app on the main queue, as a tap does, and waits for its completion; the app's value,
/// `Sendable` or not, is turned into the answer on the main queue, where the app hands it over.
/// No continuation to write, and nothing non-`Sendable` crosses a thread.
extension DriverSession {
    /// Calls the app on the main queue with a completion handler and waits for it; `convert`
    /// turns what the completion hands over (a model, a `Result<User, Error>`, several values as
    /// a tuple) into this action's answer, on the main queue.
    ///
    /// ```swift
    /// case "login":
    ///     return await withCompletion { done in
    ///         store.login(email: email, password: password, completion: done)
    ///     } onMainQueue: { (result: Result<User, APIError>) in
    ///         switch result {
    ///         case .success(let user): .value(["id": .string(user.id)])
    ///         case .failure(let error): .error(["code": .string(error.code)])
    ///         }
    ///     }
    /// ```
    ///
    /// A completion called on the main queue is converted there and then; one called on another
    /// thread is converted in a block sent to the main queue. A completion called twice answers
    /// once: later calls are ignored.
    /// - Parameters:
    ///   - call: starts the app's work, passing `done` as its completion handler
    ///     (`{ done in store.logout { done(()) } }` for one that hands over nothing).
    ///   - convert: makes the answer, `ActionResult` or `JSONValue`, on the main queue.
    public func withCompletion<Value, Answer: Sendable>(
        _ call: @escaping @Sendable (_ done: @escaping @Sendable (Value) -> Void) -> Void,
        onMainQueue convert: @escaping @Sendable (Value) -> Answer
    ) async -> Answer {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let answer = AnswerOnce(continuation)
            DispatchQueue.main.async {
                call { value in
                    guard !Thread.isMainThread else { return answer.resume(with: convert(value)) }
                    // The completion hands its value over and keeps nothing of it: the main queue owns it now.
                    let handed = HandedOver(value)
                    DispatchQueue.main.async { answer.resume(with: convert(handed.value)) }
                }
            }
        }
    }

    /// Reads the app's state on the main queue, where the app writes it: for ``snapshot()``,
    /// ``alerts()`` and ``timeline()`` of a stack whose state lives there.
    public func onMainQueue<Answer: Sendable>(_ read: @escaping @Sendable () -> Answer) async -> Answer {
        await withCompletion({ done in done(()) }, onMainQueue: { _ in read() })
    }
}

/// A continuation resumed by the first answer only.
private final class AnswerOnce<Answer: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Answer, Never>?

    init(_ continuation: CheckedContinuation<Answer, Never>) { self.continuation = continuation }

    func resume(with answer: Answer) {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: answer)
    }
}

/// A value a completion handed over, carried to the main queue: the completion-handler contract
/// (the caller lets go of what it passes) is what makes the crossing safe, which the compiler
/// cannot see for a non-`Sendable` model.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
