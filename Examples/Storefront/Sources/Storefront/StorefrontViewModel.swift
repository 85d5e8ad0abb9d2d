import Foundation

/// The shop's screens' state: search results, the product on show, the cart and the alerts. It
/// lives on the main queue: every method is called there and calls its completion there.
public final class StorefrontViewModel: @unchecked Sendable {
    /// A completion, called on the main queue.
    public typealias Completion = @Sendable (Result<Void, StoreError>) -> Void

    /// The client every call goes through.
    public let api: StoreAPI
    /// How many results the last search showed.
    public private(set) var resultCount = 0
    /// The id of the product on show.
    public private(set) var productOnShow: String?
    /// How many items the cart holds.
    public private(set) var cartCount = 0
    /// The id of the last order placed.
    public private(set) var lastOrder: String?
    /// Every alert shown, in order.
    public private(set) var alerts: [StoreAlert] = []

    /// Creates the model over a client.
    public init(api: StoreAPI) {
        self.api = api
    }

    /// Searches the catalogue (`GET /search?q=`); a busy backend is an alert once the client
    /// stops trying.
    public func search(_ text: String, completion: @escaping Completion) {
        call(StoreRequest("GET", "/search", query: [URLQueryItem(name: "q", value: text)]), completion: completion) { (body: SearchBody) in
            self.resultCount = body.results.count
        }
    }

    /// Shows a product (`GET /products/{id}`).
    public func openProduct(_ id: String, completion: @escaping Completion) {
        call(StoreRequest("GET", "/products/\(id)"), completion: completion) { (body: ProductBody) in self.productOnShow = body.id }
    }

    /// Adds a product to the cart (`POST /cart/items`).
    public func addToCart(_ id: String, completion: @escaping Completion) {
        call(StoreRequest("POST", "/cart/items", body: StoreRequest.json(["product_id": id])), completion: completion) { (body: CartBody) in
            self.cartCount = body.count
        }
    }

    /// Reads the cart (`GET /cart`).
    public func loadCart(completion: @escaping Completion) {
        call(StoreRequest("GET", "/cart"), completion: completion) { (body: CartBody) in self.cartCount = body.count }
    }

    /// Places the order (`POST /orders`).
    public func checkout(completion: @escaping Completion) {
        call(StoreRequest("POST", "/orders"), completion: completion) { (body: OrderBody) in
            self.lastOrder = body.id
            self.cartCount = 0
        }
    }

    /// Any other call of a screen, answered as it came; a busy backend is an alert too.
    public func send(_ request: StoreRequest, completion: @escaping StoreAPI.Completion<StoreAPI.Response>) {
        api.send(request) { result in
            if case .failure(.busy(_, let seconds)) = result { self.alerts.append(.busy(retryAfter: seconds)) }
            completion(result)
        }
    }

    // Called on the main queue; `apply` runs there too.
    private func call<Body: Decodable & Sendable>(
        _ request: StoreRequest, completion: @escaping Completion, apply: @escaping (Body) -> Void
    ) {
        let apply = UncheckedApply(apply)
        api.send(request) { result in
            switch result {
            case .success(let response):
                guard let body = try? JSONDecoder().decode(Body.self, from: response.body) else { return completion(.failure(.badBody)) }
                apply.run(body)
                completion(.success(()))
            case .failure(let error):
                if case .busy(_, let seconds) = error { self.alerts.append(.busy(retryAfter: seconds)) }
                completion(.failure(error))
            }
        }
    }
}

// A main-queue closure handed through the client's queue and back to the main queue, where it runs.
private struct UncheckedApply<Body>: @unchecked Sendable {
    let run: (Body) -> Void
    init(_ run: @escaping (Body) -> Void) { self.run = run }
}

// The contract's JSON shapes.
private struct SearchBody: Decodable {
    struct Result: Decodable {
        var id: String
    }
    var results: [Result]
}

private struct ProductBody: Decodable {
    var id: String
}

private struct CartBody: Decodable {
    var count: Int
}

private struct OrderBody: Decodable {
    var id: String
}
