/// Formats table cells for `compare`'s tables.
enum Cell {
    /// Right-aligns `text` in `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Ops/s as a short figure: `47.1k`, `1.06M`; `—` when missing.
    static func rate(_ value: Double?) -> String {
        guard let value else { return "—" }
        switch value {
        case 1e6...: return String(format: "%.2fM", value / 1e6)
        case 1e5...: return String(format: "%.0fk", value / 1e3)
        case 1e3...: return String(format: "%.1fk", value / 1e3)
        default: return String(format: "%.0f", value)
        }
    }

    /// `a / b` as `0.85x`; `—` when either is missing.
    static func ratio(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b, b > 0 else { return "—" }
        return String(format: "%.2fx", a / b)
    }

    /// Allocations per verify with one decimal; `—` when missing.
    static func count(_ value: Double?) -> String {
        guard let value else { return "—" }
        return String(format: "%.1f", value)
    }

    /// A scaling factor as `1.93`; `—` when missing.
    static func factor(_ value: Double?) -> String {
        guard let value else { return "—" }
        return String(format: "%.2f", value)
    }
}
