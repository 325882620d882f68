import CWebKitGTK
import Vitrine

/// An `AppMenu` as com.canonical.dbusmenu lays it out: items numbered depth first from 1
/// (0 is the root), each with its dbusmenu properties, built into GVariants on request.
struct DBusMenuLayout {
    struct Node {
        let id: Int32
        let properties: [(String, Property)]
        let children: [Node]
    }

    enum Property: Equatable {
        case string(String), bool(Bool), int(Int32)
    }

    let root: Node
    /// The command id of each clickable item.
    let commands: [Int32: String]

    init(_ menu: AppMenu) {
        var next: Int32 = 1
        var commands: [Int32: String] = [:]
        func nodes(_ items: [AppMenu.Item]) -> [Node] {
            items.map { item in
                let id = next
                next += 1
                switch item {
                case .separator:
                    return Node(id: id, properties: [("type", .string("separator"))], children: [])
                case .submenu(let label, let items):
                    return Node(id: id, properties: [("label", .string(label)), ("children-display", .string("submenu"))], children: nodes(items))
                case .command(let command, let label, _, let enabled, let checked):
                    commands[id] = command
                    var properties: [(String, Property)] = [("label", .string(label)), ("enabled", .bool(enabled))]
                    if let checked { properties += [("toggle-type", .string("checkmark")), ("toggle-state", .int(checked ? 1 : 0))] }
                    return Node(id: id, properties: properties, children: [])
                }
            }
        }
        let children = nodes(menu.items)
        root = Node(id: 0, properties: [("children-display", .string("submenu"))], children: children)
        self.commands = commands
    }

    func node(_ id: Int32) -> Node? {
        func find(_ node: Node) -> Node? {
            if node.id == id { return node }
            for child in node.children { if let found = find(child) { return found } }
            return nil
        }
        return find(root)
    }

    /// Every node, depth first.
    var nodes: [Node] {
        func all(_ node: Node) -> [Node] { [node] + node.children.flatMap(all) }
        return all(root)
    }

    /// The nodes of `other`, by id, whose properties differ from this layout's (the same
    /// menu with items toggled: hosts hear these in ItemsPropertiesUpdated).
    func changedNodes(in other: DBusMenuLayout) -> [Node] {
        let before = Dictionary(nodes.map { ($0.id, $0.properties) }, uniquingKeysWith: { first, _ in first })
        return other.nodes.filter { node in
            guard let old = before[node.id] else { return true }
            return !old.elementsEqual(node.properties) { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    // MARK: GVariants (new floating references)

    /// `(ia{sv}av)` of the node `id`, its children to `depth` levels (-1: all).
    func layout(of id: Int32, depth: Int32) -> OpaquePointer? {
        guard let node = node(id) else { return nil }
        return Self.layout(node, depth: depth)
    }

    private static func layout(_ node: Node, depth: Int32) -> OpaquePointer {
        let children = depth == 0 ? [] : node.children.map { g_variant_new_variant(layout($0, depth: depth - 1)) }
        return tuple([g_variant_new_int32(node.id), properties(node), array(of: "v", children)])
    }

    /// `a{sv}`
    static func properties(_ node: Node) -> OpaquePointer {
        array(of: "{sv}", node.properties.map { name, value in
            let variant: OpaquePointer = switch value {
            case .string(let text): g_variant_new_string(text)
            case .bool(let flag): g_variant_new_boolean(flag ? 1 : 0)
            case .int(let number): g_variant_new_int32(number)
            }
            return g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_variant(variant))
        })
    }

    /// `a(ia{sv})` of the nodes `ids` that exist.
    func groupProperties(_ ids: [Int32]) -> OpaquePointer {
        Self.array(of: "(ia{sv})", ids.compactMap(node).map { Self.tuple([g_variant_new_int32($0.id), Self.properties($0)]) })
    }

    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    static func array(of type: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        let variantType = g_variant_type_new(type)
        defer { g_variant_type_free(variantType) }
        var children = children
        return g_variant_new_array(variantType, &children, gsize(children.count))
    }
}
