using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace Mintbench.Tests
{
    /// <summary>
    /// A minimal stand-in for the sink: accepts one connection and acknowledges each request, or
    /// misbehaves on purpose (closes, answers with an error status, or never answers) at a chosen
    /// request, so the producer's success and error paths can be tested without the Rust harness.
    /// </summary>
    public sealed class FakeSink : IDisposable
    {
        public enum Fault { None, Close, ErrorStatus, Silence }

        const ulong Session = 77;
        readonly TcpListener listener = new TcpListener(IPAddress.Loopback, 0);
        readonly Thread thread;
        readonly ManualResetEventSlim stopped = new ManualResetEventSlim();
        readonly Fault fault;
        readonly int faultAtRequest;

        /// <summary>One SEND_MESSAGES request as received.</summary>
        public sealed class Batch
        {
            public int Count;
            /// <summary>Payload value 0 of the first message: its sequence number when BITS=64.</summary>
            public ulong FirstValue;
            /// <summary>Whether every ID carries a v4 Guid's version and variant bits where the
            /// SDK's conversion puts them (wire bytes 15 and 0).</summary>
            public bool AllGuidIds;
        }

        public int Port { get; private set; }
        public int MessagesReceived { get; private set; }
        public bool LoggedOut { get; private set; }
        public readonly List<Batch> Batches = new List<Batch>();

        public FakeSink(Fault fault = Fault.None, int faultAtRequest = 0)
        {
            this.fault = fault;
            this.faultAtRequest = faultAtRequest;
            listener.Start();
            Port = ((IPEndPoint)listener.LocalEndpoint).Port;
            thread = new Thread(Serve) { IsBackground = true };
            thread.Start();
        }

        void Serve()
        {
            try
            {
                using (TcpClient client = listener.AcceptTcpClient())
                using (NetworkStream stream = client.GetStream())
                {
                    var header = new byte[256];
                    for (int index = 0; ; index++)
                    {
                        if (!ReadExactly(stream, header, 256)) return;
                        var body = new byte[LittleEndian.ReadUInt32(header, 48) - 256];
                        if (!ReadExactly(stream, body, body.Length)) return;
                        if (index == faultAtRequest && fault == Fault.Close) return;
                        if (index == faultAtRequest && fault == Fault.Silence) { stopped.Wait(); return; }
                        uint status = index == faultAtRequest && fault == Fault.ErrorStatus ? 3u : 0u;
                        byte operation = header[176];
                        if (operation == IggyFrames.OperationSendMessages) Record(body);
                        if (operation == IggyFrames.OperationLogout) LoggedOut = true;
                        byte[] reply = Reply(LittleEndian.ReadUInt64(header, 168), operation, status);
                        stream.Write(reply, 0, reply.Length);
                    }
                }
            }
            catch (System.IO.IOException) { }   // the producer reset the connection
            catch (SocketException) { }         // Dispose stopped the listener before a connection came
        }

        void Record(byte[] body)
        {
            var batch = new Batch { Count = (int)LittleEndian.ReadUInt32(body, 22), AllGuidIds = true };
            int at = MessagesInBody;
            batch.FirstValue = LittleEndian.ReadUInt64(body, at + 48) ^ 0xA5A5A5A5A5A5A5A5UL;
            for (int i = 0; i < batch.Count; i++)
            {
                batch.AllGuidIds &= (body[at + 8] & 0xC0) == 0x80 && (body[at + 8 + 15] & 0xF0) == 0x40;
                at += 48 + (int)LittleEndian.ReadUInt32(body, at + 36);
            }
            MessagesReceived += batch.Count;
            Batches.Add(batch);
        }

        const int MessagesInBody = 4 + 22 + 256; // metadata length, metadata, batch header

        static byte[] Reply(ulong request, byte operation, uint status)
        {
            int bodyLength = operation == IggyFrames.OperationLogin && status == 0 ? 21 : 0;
            var reply = new byte[256 + bodyLength];
            LittleEndian.WriteUInt32(reply, 48, (uint)reply.Length);
            reply[60] = 8; // reply
            LittleEndian.WriteUInt64(reply, 200, request);
            reply[208] = operation;
            LittleEndian.WriteUInt32(reply, 216, status);
            if (bodyLength > 0)
            {
                LittleEndian.WriteUInt32(reply, 256 + 4, 1);        // user id
                LittleEndian.WriteUInt64(reply, 256 + 8, Session);
                LittleEndian.WriteUInt32(reply, 256 + 16, 0x3002);  // protocol version, then an empty version string
            }
            return reply;
        }

        static bool ReadExactly(NetworkStream stream, byte[] buffer, int count)
        {
            for (int read = 0; read < count;)
            {
                int n = stream.Read(buffer, read, count - read);
                if (n == 0) return false;
                read += n;
            }
            return true;
        }

        /// <summary>Waits for the connection to end, so the counters are final.</summary>
        public void Join()
        {
            if (!thread.Join(TimeSpan.FromSeconds(15))) throw new CheckFailed("the producer's connection did not end");
        }

        public void Dispose()
        {
            stopped.Set();
            listener.Stop();
        }
    }
}
