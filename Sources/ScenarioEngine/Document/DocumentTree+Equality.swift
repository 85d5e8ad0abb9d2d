extension DocumentTree {
    /// Whether two nodes hold the same value, as JSON sees it: members in any order, numbers by
    /// value, strings by text. Walks the trees without copying them out, and does not walk a
    /// node shared by two aliases twice when it meets the same pair again.
    package static func sameValue(_ left: DocumentTree, _ leftNode: Node, _ right: DocumentTree, _ rightNode: Node) -> Bool {
        var comparer = Comparer(left: left, right: right)
        return comparer.same(leftNode, rightNode)
    }

    private struct Comparer {
        let left: DocumentTree
        let right: DocumentTree
        /// Pairs already found equal (a YAML alias repeats a node: compare it once).
        var equal: Set<Int64> = []

        mutating func same(_ a: Node, _ b: Node) -> Bool {
            let kind = left.kind(a)
            guard kind == right.kind(b) else { return false }
            switch kind {
            case .null: return true
            case .bool: return left.bool(a) == right.bool(b)
            case .number: return left.number(a) == right.number(b)
            case .string: return sameText(a, b)
            case .array, .object:
                let pair = Int64(a) << 32 | Int64(b)
                if equal.contains(pair) { return true }
                let result = kind == .array ? sameElements(a, b) : sameMembers(a, b)
                if result { equal.insert(pair) }
                return result
            }
        }

        private func sameText(_ a: Node, _ b: Node) -> Bool {
            let leftSlot = left.slots[Int(a)]
            let rightSlot = right.slots[Int(b)]
            if !leftSlot.decoded, !rightSlot.decoded {
                guard leftSlot.second == rightSlot.second else { return false }
                let count = Int(leftSlot.second)
                let leftStart = Int(leftSlot.first)
                let rightStart = Int(rightSlot.first)
                for index in 0..<count where left.source[leftStart + index] != right.source[rightStart + index] { return false }
                return true
            }
            return left.string(a) == right.string(b)
        }

        private mutating func sameElements(_ a: Node, _ b: Node) -> Bool {
            guard let leftElements = left.elements(a), let rightElements = right.elements(b),
                leftElements.count == rightElements.count
            else { return false }
            for (x, y) in zip(leftElements, rightElements) where !same(x, y) { return false }
            return true
        }

        private mutating func sameMembers(_ a: Node, _ b: Node) -> Bool {
            guard let leftMembers = left.members(a), let rightMembers = right.members(b),
                leftMembers.count == rightMembers.count
            else { return false }
            // Small objects by search, large ones through an index of the right side's keys.
            var index: [String: Node] = [:]
            if rightMembers.count > 8 {
                for member in rightMembers { index[right.string(member.key) ?? ""] = member.value }
            }
            for member in leftMembers {
                let key = left.string(member.key) ?? ""
                let other = rightMembers.count > 8 ? index[key] : rightMembers.first { right.isString($0.key, key) }?.value
                guard let other, same(member.value, other) else { return false }
            }
            return true
        }
    }
}
