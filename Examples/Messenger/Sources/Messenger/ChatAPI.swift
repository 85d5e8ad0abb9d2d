import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The messenger's calls (conversations, messages) over a `URLSession` of their own: each
/// carries the access token; a `401` renews it through the shared ``CredentialStore`` and the
/// call is sent once more. Every call in flight can be cancelled at once.
public actor ChatAPI {
    /// Called on the main actor when a refused refresh ended the session.
    public typealias SessionEndedHandler = @MainActor @Sendable () -> Void

    private let wire: HTTPWire
    private let credentials: CredentialStore
    private var inFlight: [Int: Task<Data, any Error>] = [:]
    private var nextCall = 0
    private var onSessionEnded: SessionEndedHandler?

    /// Creates the client over a session built from `configuration`.
    public init(configuration: URLSessionConfiguration, baseURL: URL, credentials: CredentialStore) {
        wire = HTTPWire(session: URLSession(configuration: configuration), baseURL: baseURL)
        self.credentials = credentials
    }

    /// Registers what the main actor does when the session ends.
    public func setSessionEnded(_ handler: @escaping SessionEndedHandler) { onSessionEnded = handler }

    /// Sends an authenticated call and answers its body.
    public func send(_ method: String, _ path: String, query: [URLQueryItem] = [], json: [String: String]? = nil) async throws -> Data {
        nextCall += 1
        let number = nextCall
        let task = Task { try await self.perform(method, path, query: query, json: json) }
        inFlight[number] = task
        defer { inFlight[number] = nil }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels every call on its way: none of them acts on its answer.
    public func cancelAll() {
        for task in inFlight.values { task.cancel() }
        inFlight = [:]
    }

    private func perform(_ method: String, _ path: String, query: [URLQueryItem], json: [String: String]?) async throws -> Data {
        guard let used = await credentials.current else { throw ChatError.signedOut }
        var answer = try await wire.load(method, path, query: query, json: json, bearer: used.access)
        if answer.status == 401 {
            let renewed: ChatTokens
            do {
                renewed = try await credentials.renew(refused: used)
            } catch ChatError.sessionEnded {
                let handler = onSessionEnded
                await MainActor.run { handler?() }
                throw ChatError.sessionEnded
            }
            answer = try await wire.load(method, path, query: query, json: json, bearer: renewed.access)
        }
        guard (200..<300).contains(answer.status) else { throw ChatError.server(status: answer.status) }
        return answer.body
    }
}
