using System;
using System.Text;

namespace Mintbench
{
    /// <summary>Request frames of the Iggy TCP protocol (sdks/WIRE.md): a 256-byte header,
    /// then the body. Fields not written here stay zero.</summary>
    public static class IggyFrames
    {
        public const int HeaderSize = 256;
        public const byte OperationLogin = 1, OperationLogout = 3, OperationSendMessages = 160;
        const byte CommandRequest = 5;
        const uint ProtocolVersion = 0x3002; // 0.12.2 as major << 20 | minor << 10 | patch
        public const string SdkName = "mintbench-csharp", SdkVersion = "0.1.0";
        const string Username = "iggy", Password = "iggy";
        const int BindSecretSize = 32;

        /// <param name="client">16 bytes: the connection's random non-zero u128.</param>
        /// <param name="requestChecksum">16 bytes, or null for zero.</param>
        public static void WriteHeader(byte[] frame, int bodyLength, byte[] client, byte[] requestChecksum,
            ulong request, byte operation, ulong session)
        {
            LittleEndian.WriteUInt32(frame, 48, (uint)(HeaderSize + bodyLength));
            frame[60] = CommandRequest;
            Buffer.BlockCopy(client, 0, frame, 128, 16);
            if (requestChecksum != null) Buffer.BlockCopy(requestChecksum, 0, frame, 144, 16);
            LittleEndian.WriteUInt64(frame, 168, request);
            frame[176] = operation;
            LittleEndian.WriteUInt64(frame, 184, session);
        }

        public static byte[] Login(byte[] client, byte[] requestChecksum, string sdkName = SdkName,
            string sdkVersion = SdkVersion, string username = Username, string password = Password)
        {
            byte[] name = Encoding.UTF8.GetBytes(sdkName), version = Encoding.UTF8.GetBytes(sdkVersion);
            byte[] user = Encoding.UTF8.GetBytes(username), secret = Encoding.UTF8.GetBytes(password);
            int bodyLength = 4 + 1 + name.Length + 1 + version.Length + BindSecretSize
                + 1 + user.Length + 1 + secret.Length + 4;
            var frame = new byte[HeaderSize + bodyLength];
            WriteHeader(frame, bodyLength, client, requestChecksum, 0, OperationLogin, 0);
            int at = HeaderSize;
            LittleEndian.WriteUInt32(frame, at, ProtocolVersion);
            at = WriteShortString(frame, at + 4, name);
            at = WriteShortString(frame, at, version);
            at += BindSecretSize; // all zero
            at = WriteShortString(frame, at, user);
            at = WriteShortString(frame, at, secret);
            LittleEndian.WriteUInt32(frame, at, 0); // context length
            return frame;
        }

        public static byte[] Logout(byte[] client, ulong request, ulong session)
        {
            var frame = new byte[HeaderSize];
            WriteHeader(frame, 0, client, null, request, OperationLogout, session);
            return frame;
        }

        static int WriteShortString(byte[] frame, int at, byte[] text)
        {
            frame[at] = (byte)text.Length;
            Buffer.BlockCopy(text, 0, frame, at + 1, text.Length);
            return at + 1 + text.Length;
        }
    }
}
