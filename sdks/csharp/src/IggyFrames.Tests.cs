using System;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Xml.Linq;

namespace Mintbench.Tests
{
    /// <summary>The login, logout and SEND_MESSAGES encoders against the Rust reference frames and
    /// against the layout of sdks/WIRE.md.</summary>
    public static class IggyFramesTests
    {
        static readonly byte[] Client = MessageId.Serialize("123456789012345678901234567890");

        public static void LoginMatchesVectors()
        {
            foreach (var v in FrameVectors("login"))
            {
                byte[] frame = IggyFrames.Login(U128(v, "client"), U128(v, "request_checksum"),
                    v.Text("sdk_name"), v.Text("sdk_version"), v.Text("username"), v.Text("password"));
                Check.Hex(v.Text("hex"), frame, "login frame");
            }
        }

        public static void LogoutMatchesVectors()
        {
            foreach (var v in FrameVectors("logout"))
                Check.Hex(v.Text("hex"), IggyFrames.Logout(U128(v, "client"), U64(v, "request"), U64(v, "session")), "logout frame");
        }

        public static void SendMessagesMatchesVectors()
        {
            foreach (var v in FrameVectors("send_messages"))
            {
                Check.Equal("1/1/0", v.Text("stream") + "/" + v.Text("topic") + "/" + v.Text("partition"), "the fixed stream/topic/partition");
                byte[][] ids = v.Element("ids").Elements().Select(e => MessageId.Serialize(e.Value)).ToArray();
                var encoder = new SendMessagesEncoder(U128(v, "client"), ids.Length, Int(v, "bits"), Int(v, "pack"), new ListMinter(ids));
                int length = encoder.Encode(U64(v, "request"), U64(v, "session"), U64(v, "origin_timestamp"), U64(v, "first_seq"), ids.Length);
                Check.Equal(v.Text("hex"), Check.ToHex(encoder.Frame, 0, length), "send_messages frame of " + ids.Length + " messages");
            }
        }

        public static void LoginCarriesTheCredentialsAndNames()
        {
            var checksum = MessageId.Serialize(99UL);
            byte[] frame = IggyFrames.Login(Client, checksum);
            Check.Equal((uint)frame.Length, LittleEndian.ReadUInt32(frame, 48), "size is the whole frame");
            Check.Equal((byte)5, frame[60], "command: request");
            Check.Equal(Check.ToHex(Client), Check.ToHex(frame, 128, 16), "client");
            Check.Equal(Check.ToHex(checksum), Check.ToHex(frame, 144, 16), "request checksum");
            Check.Equal((byte)1, frame[176], "operation: login");
            string body = Check.ToHex(frame, 256, frame.Length - 256);
            string expected = "02300000" + Str("mintbench-csharp") + Str("0.1.0") + new string('0', 64) + Str("iggy") + Str("iggy") + "00000000";
            Check.Equal(expected, body, "login body");
        }

        public static void LogoutIsAHeaderOnly()
        {
            byte[] frame = IggyFrames.Logout(Client, 7, 42);
            Check.Equal(256, frame.Length, "logout frame length");
            Check.Equal(7UL, LittleEndian.ReadUInt64(frame, 168), "request");
            Check.Equal((byte)3, frame[176], "operation: logout");
            Check.Equal(42UL, LittleEndian.ReadUInt64(frame, 184), "session");
        }

        /// <summary>Lengths, IDs, payloads and both checksum levels of a short last batch written into a
        /// buffer that held a longer one before.</summary>
        public static void SendMessagesLaysOutABatch()
        {
            byte[][] ids = { MessageId.Serialize(11UL), MessageId.Serialize(12UL), MessageId.Serialize(13UL) };
            var encoder = new SendMessagesEncoder(Client, 4, 42, 2, new ListMinter(new[] { ids[2], ids[1], ids[0], ids[2] }.Concat(ids).ToArray()));
            encoder.Encode(1, 5, 1000, 0, 4);
            int length = encoder.Encode(2, 5, 1700000000000000, 4, 3);
            byte[] f = encoder.Frame;
            const int messageLength = 48 + 12, batchAt = 256 + 26;
            Check.Equal(256 + 26 + 256 + 3 * messageLength, length, "frame length");
            Check.Equal((uint)length, LittleEndian.ReadUInt32(f, 48), "size");
            Check.Equal((byte)160, f[176], "operation: send messages");
            Check.Equal(2UL, LittleEndian.ReadUInt64(f, 168), "request");
            Check.Equal("16000000" + "010401000000" + "010401000000" + "020400000000" + "03000000",
                Check.ToHex(f, 256, 26), "metadata: stream 1, topic 1, partition 0, 3 messages");
            Check.Equal(1700000000000000UL, LittleEndian.ReadUInt64(f, batchAt + 24), "origin timestamp");
            Check.Equal((ulong)(256 + 3 * messageLength), LittleEndian.ReadUInt64(f, batchAt + 32), "batch length");
            Check.Equal(3U, LittleEndian.ReadUInt32(f, batchAt + 48), "message count");

            var checksumInput = new byte[44 + 8 * 3];
            Buffer.BlockCopy(f, batchAt, checksumInput, 0, 40);
            LittleEndian.WriteUInt32(checksumInput, 40, 3);
            for (int i = 0; i < 3; i++)
            {
                int at = batchAt + 256 + i * messageLength;
                Check.Equal(Check.ToHex(ids[i]), Check.ToHex(f, at + 8, 16), "id " + i);
                Check.Equal((uint)i, LittleEndian.ReadUInt32(f, at + 24), "offset delta " + i);
                Check.Equal(12U, LittleEndian.ReadUInt32(f, at + 36), "payload length " + i);
                var payload = new byte[12];
                Payload.Write(payload, 0, 4 + (ulong)i, 42, 2);
                Check.Equal(Check.ToHex(payload), Check.ToHex(f, at + 48, 12), "payload of seq " + (4 + i));
                Check.Equal(Xxh3.Hash64(f, at + 8, messageLength - 8), LittleEndian.ReadUInt64(f, at), "message checksum " + i);
                Buffer.BlockCopy(f, at, checksumInput, 44 + 8 * i, 8);
            }
            Check.Equal(Xxh3.Hash64(checksumInput), LittleEndian.ReadUInt64(f, batchAt + 40), "batch checksum");
        }

        public static void SendMessagesRejectsAnOversizedBatch()
        {
            var encoder = new SendMessagesEncoder(Client, 2, 42, 1, new XoshiroMinter());
            Check.Throws<ArgumentOutOfRangeException>(() => encoder.Encode(1, 1, 1, 0, 3), "3 messages into a batch of 2");
        }

        internal static System.Collections.Generic.List<XElement> FrameVectors(string kind)
        {
            return Vectors.NonEmpty(Vectors.Items("frames").Where(v => v.Text("kind") == kind).ToList(), kind + " frames");
        }

        static string Str(string s)
        {
            return s.Length.ToString("x2") + Check.ToHex(Encoding.ASCII.GetBytes(s));
        }

        internal static byte[] U128(XElement v, string field) { return MessageId.Serialize(v.Text(field)); }
        internal static ulong U64(XElement v, string field) { return ulong.Parse(v.Text(field), CultureInfo.InvariantCulture); }
        internal static int Int(XElement v, string field) { return int.Parse(v.Text(field), CultureInfo.InvariantCulture); }
    }
}
