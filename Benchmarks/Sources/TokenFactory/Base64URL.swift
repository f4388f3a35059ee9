/// A plain base64url encoder (RFC 4648 §5, no padding) for building test tokens and JWKs.
///
/// Only the token factory uses it; it is not on any measured path.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` as unpadded base64url ASCII bytes.
    public static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let remaining = input.count - index
            let b0 = UInt32(input[index])
            let b1 = remaining > 1 ? UInt32(input[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(input[index + 2]) : 0
            let value = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            if remaining > 1 { output.append(alphabet[Int(value >> 6 & 63)]) }
            if remaining > 2 { output.append(alphabet[Int(value & 63)]) }
            index += 3
        }
        return output
    }

    /// Encodes `bytes` as an unpadded base64url string.
    public static func encodeToString(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encode(bytes), as: UTF8.self)
    }
}
