import Foundation
import HTTPCore

/// The direct way in: an ``HTTPTransport`` that hands requests straight to the run's backend.
package struct ScriptedTransport: HTTPTransport {
    private let backend: ScriptedBackend

    /// Creates a transport for one run's backend.
    package init(backend: ScriptedBackend) { self.backend = backend }

    /// Hands the request to the backend and returns its answer when it gives one. A task that
    /// is cancelled first gets `cancelled` at once, as from URLSession, and the backend logs the
    /// cancel and drops the answer.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let pending = PendingAnswer()
        let backend = self.backend
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<HTTPResponse, any Error>) in
                guard pending.begin(continuation) else { return }
                let number = backend.handle(request) { result in pending.finish(result.mapError { $0 as any Error }) }
                pending.sent(as: number) { backend.cancelledByClient($0) }
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// One request's answer, which the task awaiting it may give up first. It resumes the
/// continuation exactly once, whichever comes first, so an unchecked one will do (a checked one
/// costs an allocation per request).
private final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: UnsafeContinuation<HTTPResponse, any Error>?
    private var cancelled = false
    /// The request's number once sent, and how to tell the backend it was given up.
    private var number: Int?
    private var giveUp: ((Int) -> Void)?

    private static let cancellation = TransportError(.cancelled, detail: "the task was cancelled")

    /// Starts waiting; `false` when the task was cancelled already, and nothing is to be sent.
    func begin(_ continuation: UnsafeContinuation<HTTPResponse, any Error>) -> Bool {
        lock.lock()
        let proceed = !cancelled
        if proceed { self.continuation = continuation }
        lock.unlock()
        if !proceed { continuation.resume(throwing: Self.cancellation) }
        return proceed
    }

    /// The request went out as `number`; a cancel that came meanwhile takes effect now.
    func sent(as number: Int, giveUp: @escaping (Int) -> Void) {
        lock.lock()
        self.number = number
        self.giveUp = giveUp
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { cancel() }
    }

    func finish(_ result: Result<HTTPResponse, any Error>) {
        lock.lock()
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(with: result)
    }

    /// Gives the answer up: at once when the request went out (not sent yet: `sent` finishes it).
    func cancel() {
        lock.lock()
        cancelled = true
        guard let number, let giveUp, let waiting = continuation else {
            lock.unlock()
            return
        }
        continuation = nil
        lock.unlock()
        giveUp(number)
        waiting.resume(throwing: Self.cancellation)
    }
}
