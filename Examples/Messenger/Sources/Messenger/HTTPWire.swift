import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call on the wire, as each service sends it over its own `URLSession`.
struct HTTPWire: Sendable {
    let session: URLSession
    let baseURL: URL

    /// Sends and answers the status and body; a cancelled task is ``ChatError/cancelled``.
    func load(
        _ method: String, _ path: String, query: [URLQueryItem] = [], json: [String: String]? = nil, bearer: String?
    ) async throws -> (status: Int, body: Data) {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw ChatError.network }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw ChatError.network }
            return (http.statusCode, data)
        } catch let error as ChatError {
            throw error
        } catch {
            throw Task.isCancelled || (error as? URLError)?.code == .cancelled ? ChatError.cancelled : ChatError.network
        }
    }
}
