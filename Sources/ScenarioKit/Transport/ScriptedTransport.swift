import HTTPCore

/// The direct way in: an ``HTTPTransport`` that hands requests straight to the run's backend.
public struct ScriptedTransport: HTTPTransport {
    private let backend: ScriptedBackend

    /// Creates a transport for one run's backend.
    public init(backend: ScriptedBackend) { self.backend = backend }

    /// Hands the request to the backend and returns its answer when it gives one.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
            backend.handle(request) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }
}
