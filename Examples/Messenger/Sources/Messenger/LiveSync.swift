import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The inbox's live updates: a long poll (`GET /sync?cursor=N`, answered when something happens
/// or after the server's wait) over a `URLSession` of its own, polled again while the answer says
/// there is more. It stops on a refusal, when it is stopped, and when nothing more is pending.
public actor LiveSync {
    /// What one poll brought.
    public struct Batch: Sendable, Hashable, Decodable {
        /// How many new messages.
        public var messages: Int
        /// Where the next poll starts.
        public var cursor: Int
        /// Whether to poll again.
        public var more: Bool
    }

    private let wire: HTTPWire
    private var loop: Task<Void, Never>?
    private var loops = 0

    /// Creates the sync over a session built from `configuration`.
    public init(configuration: URLSessionConfiguration, baseURL: URL) {
        wire = HTTPWire(session: URLSession(configuration: configuration), baseURL: baseURL)
    }

    /// Starts polling from `cursor` with `accessToken`; each batch goes to `deliver` on the main
    /// actor. A sync already running is left as it is.
    public func start(from cursor: Int, accessToken: String, deliver: @escaping @MainActor @Sendable (Batch) -> Void) {
        guard loop == nil else { return }
        let wire = self.wire
        loops += 1
        let number = loops
        loop = Task {
            var cursor = cursor
            while !Task.isCancelled {
                guard
                    let answer = try? await wire.load(
                        "GET", "/sync", query: [URLQueryItem(name: "cursor", value: "\(cursor)")], bearer: accessToken),
                    answer.status == 200, let batch = try? JSONDecoder().decode(Batch.self, from: answer.body)
                else { break }
                await deliver(batch)
                cursor = batch.cursor
                if !batch.more { break }
            }
            self.finished(number)
        }
    }

    /// Stops polling; the poll on its way is cancelled.
    public func stop() {
        loop?.cancel()
        loop = nil
    }

    // A loop that ends by itself; one stopped and replaced meanwhile leaves the new one alone.
    private func finished(_ number: Int) { if number == loops { loop = nil } }
}
