import Foundation
import ScenarioKit
import Storefront

/// One shop for one scenario run: actions call the model on the main queue and wait for its
/// completion (`withCompletion`); observations read it there (`onMainQueue`).
struct StorefrontSession: DriverSession {
    let model: StorefrontViewModel

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        let model = self.model
        let (query, id) = (arguments["q"]?.stringValue ?? "", arguments["id"]?.stringValue ?? "")
        switch action {
        case "search":
            return await screen { model.search(query, completion: $0) }
        case "openProduct":
            return await screen { model.openProduct(id, completion: $0) }
        case "addToCart":
            return await screen { model.addToCart(id, completion: $0) }
        case "loadCart":
            return await screen { model.loadCart(completion: $0) }
        case "checkout":
            return await screen { model.checkout(completion: $0) }
        case "request":
            let request = Self.request(arguments)
            return await withCompletion {
                model.send(request, completion: $0)
            } onMainQueue: { result in
                switch result {
                case .success(let response):
                    .value([
                        "status": .number(Double(response.status)), "attempts": .number(Double(response.attempts)),
                        "body": JSONValue.parse(response.body) ?? .null,
                    ])
                case .failure(let error): .error(Self.describe(error))
                }
            }
        default:
            return .error(["code": "unknownAction", "action": .string(action)])
        }
    }

    private func screen(_ call: @escaping @Sendable (@escaping StorefrontViewModel.Completion) -> Void) async -> ActionResult {
        await withCompletion(call) { (result: Result<Void, StoreError>) in
            switch result {
            case .success: .value(nil)
            case .failure(let error): .error(Self.describe(error))
            }
        }
    }

    /// The `request` action's call: `path`, `method` (GET by default), `query` and `json`.
    static func request(_ arguments: JSONValue) -> StoreRequest {
        let query = (arguments["query"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value.stringValue)
        }
        return StoreRequest(
            (arguments["method"]?.stringValue ?? "GET").uppercased(), arguments["path"]?.stringValue ?? "/", query: query,
            body: arguments["json"].map { Data($0.compactText.utf8) })
    }

    static func describe(_ error: StoreError) -> JSONValue {
        switch error {
        case .busy(let status, let retryAfter):
            ["code": "busy", "status": .number(Double(status)), "retryAfter": retryAfter.map { .number(Double($0)) } ?? .null]
        case .signedOut: ["code": "signedOut"]
        case .server(let status): ["code": "server", "status": .number(Double(status))]
        case .badBody: ["code": "badBody"]
        case .network: ["code": "network"]
        }
    }

    func snapshot() async -> JSONValue {
        let model = self.model
        let signedIn = model.api.isSignedIn
        return await onMainQueue {
            [
                "results": .number(Double(model.resultCount)), "product": model.productOnShow.map { .string($0) } ?? .null,
                "cart": .number(Double(model.cartCount)), "lastOrder": model.lastOrder.map { .string($0) } ?? .null,
                "signedIn": .bool(signedIn),
            ]
        }
    }

    func alerts() async -> [JSONValue] {
        let model = self.model
        return await onMainQueue { model.alerts.map { ["title": .string($0.title), "message": .string($0.message)] } }
    }

    func timeline() async -> [JSONValue] { [] }
}
