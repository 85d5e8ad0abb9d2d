import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shop's HTTP client, written with completion handlers and queues: it owns a `URLSession`,
/// adds the bearer token, shares one refresh among the calls an expired token refused, and sends
/// a call the backend answered 429 or 503 again after the wait its ``BackoffPolicy`` gives.
///
/// Threading: the tokens, the calls waiting for a refresh and every decision live on a private
/// serial queue; waits are `asyncAfter` on it; every completion is delivered with
/// `DispatchQueue.main.async`.
public final class StoreAPI: @unchecked Sendable {
    /// A completion, always called on the main queue.
    public typealias Completion<Value> = @Sendable (Result<Value, StoreError>) -> Void

    /// A successful answer.
    public struct Response: Sendable, Hashable {
        /// The status (2xx).
        public var status: Int
        /// The body.
        public var body: Data
        /// How many times the call was sent.
        public var attempts: Int
    }

    private let session: URLSession
    private let baseURL: URL
    private let backoff: BackoffPolicy
    private let now: @Sendable () -> Date
    // Everything below is read and written on `queue` only.
    private let queue = DispatchQueue(label: "Storefront.StoreAPI")
    private var tokens: StoreTokens?
    private var waitingForRefresh: [(Result<StoreTokens, StoreError>) -> Void]?

    /// Creates a client over a session built from `configuration`.
    /// - Parameter now: the wall clock, for a `Retry-After` given as an HTTP-date.
    public init(
        configuration: URLSessionConfiguration, baseURL: URL, tokens: StoreTokens?, backoff: BackoffPolicy = .serverAdvised,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        session = URLSession(configuration: configuration)
        self.baseURL = baseURL
        self.tokens = tokens
        self.backoff = backoff
        self.now = now
    }

    /// Whether a session is stored.
    public var isSignedIn: Bool { queue.sync { tokens != nil } }

    /// Sends an authenticated call: a 401 renews the tokens and sends it once more; a 429 or 503
    /// waits as the policy says and sends it again.
    public func send(_ request: StoreRequest, completion: @escaping Completion<Response>) {
        queue.async { self.attempt(request, number: 1, renewed: false, completion: completion) }
    }

    // Runs on `queue`.
    private func attempt(_ request: StoreRequest, number: Int, renewed: Bool, completion: @escaping Completion<Response>) {
        guard let used = tokens else { return deliver(.failure(.signedOut), to: completion) }
        load(request, bearer: used.access) { answer in
            self.queue.async {
                switch answer {
                case .failure(let error):
                    self.deliver(.failure(error), to: completion)
                case .success(let reply) where reply.status == 401 && !renewed:
                    self.renewTokens(refused: used) { result in
                        switch result {
                        case .success: self.attempt(request, number: number, renewed: true, completion: completion)
                        case .failure(let error): self.deliver(.failure(error), to: completion)
                        }
                    }
                case .success(let reply) where reply.status == 401:
                    self.tokens = nil
                    self.deliver(.failure(.signedOut), to: completion)
                case .success(let reply) where reply.status == 429 || reply.status == 503:
                    let advised = RetryAfter.seconds(from: reply.retryAfter, now: self.now())
                    guard let wait = self.backoff.wait(after: number, advised: advised) else {
                        return self.deliver(.failure(.busy(status: reply.status, retryAfter: advised)), to: completion)
                    }
                    self.queue.asyncAfter(deadline: .now() + .seconds(wait)) {
                        self.attempt(request, number: number + 1, renewed: renewed, completion: completion)
                    }
                case .success(let reply) where (200..<300).contains(reply.status):
                    self.deliver(.success(Response(status: reply.status, body: reply.body, attempts: number)), to: completion)
                case .success(let reply):
                    self.deliver(.failure(.server(status: reply.status)), to: completion)
                }
            }
        }
    }

    // MARK: Refresh

    // Runs on `queue`: one refresh for every call refused meanwhile.
    private func renewTokens(refused: StoreTokens, then: @escaping (Result<StoreTokens, StoreError>) -> Void) {
        if let tokens, tokens.access != refused.access { return then(.success(tokens)) }
        if waitingForRefresh != nil {
            waitingForRefresh?.append(then)
            return
        }
        waitingForRefresh = [then]
        let body = StoreRequest.json(["refresh_token": refused.refresh])
        load(StoreRequest("POST", "/auth/refresh", body: body), bearer: nil) { answer in
            self.queue.async {
                var result: Result<StoreTokens, StoreError> = .failure(.signedOut)
                if case .success(let reply) = answer, (200..<300).contains(reply.status),
                    let pair = try? JSONDecoder().decode(TokenBody.self, from: reply.body)
                {
                    result = .success(StoreTokens(access: pair.accessToken, refresh: pair.refreshToken))
                }
                self.tokens = try? result.get()
                let waiting = self.waitingForRefresh ?? []
                self.waitingForRefresh = nil
                for next in waiting { next(result) }
            }
        }
    }

    // MARK: Wire

    private struct Reply: Sendable {
        var status: Int
        var body: Data
        var retryAfter: String?
    }

    private func load(_ request: StoreRequest, bearer: String?, completion: @escaping @Sendable (Result<Reply, StoreError>) -> Void) {
        var components = URLComponents(url: baseURL.appendingPathComponent(request.path), resolvingAgainstBaseURL: false)
        if !request.query.isEmpty { components?.queryItems = request.query }
        guard let url = components?.url else { return completion(.failure(.network)) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        if let bearer { urlRequest.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        session.dataTask(with: urlRequest) { data, response, error in
            guard error == nil, let http = response as? HTTPURLResponse else { return completion(.failure(.network)) }
            let retryAfter = http.allHeaderFields.first { ($0.key as? String)?.lowercased() == "retry-after" }?.value as? String
            completion(.success(Reply(status: http.statusCode, body: data ?? Data(), retryAfter: retryAfter)))
        }
        .resume()
    }

    private func deliver<Value: Sendable>(_ result: Result<Value, StoreError>, to completion: @escaping Completion<Value>) {
        DispatchQueue.main.async { completion(result) }
    }
}

// The contract's refresh answer.
private struct TokenBody: Decodable {
    var accessToken: String
    var refreshToken: String
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}
