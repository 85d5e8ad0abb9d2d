import DispatchApp
import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the app's `URLRequest`s to an ``HTTPTransport`` (the scenario's backend on the direct
/// route) and calls the completion handler with its answer, as `dataTask` would.
struct TransportLoader: HTTPLoading {
    let transport: any HTTPTransport

    func load(_ request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        guard let url = request.url else { return completionHandler(nil, nil, URLError(.badURL)) }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var headers = HTTPFields()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append(name: name, value: value)
        }
        let outgoing = HTTPRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            path: components?.path ?? url.path,
            query: (components?.queryItems ?? []).map { .init(name: $0.name, value: $0.value) },
            headers: headers,
            body: request.httpBody)
        // Driver code: the async transport behind a completion handler.
        Task {
            let answer: HTTPResponse
            do {
                answer = try await transport.send(outgoing)
            } catch {
                return completionHandler(nil, nil, URLError(.networkConnectionLost))
            }
            var fields: [String: String] = [:]
            for field in answer.headers {
                // URLSession joins repeated names with ", "; do the same so both routes look alike.
                fields[field.name] = fields[field.name].map { "\($0), \(field.value)" } ?? field.value
            }
            let response = HTTPURLResponse(url: url, statusCode: answer.status.code, httpVersion: "HTTP/1.1", headerFields: fields)
            completionHandler(answer.body, response, response == nil ? URLError(.badServerResponse) : nil)
        }
    }
}
