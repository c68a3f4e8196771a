using System;
using System.IO;
using System.Net.Sockets;

namespace Mintbench
{
    /// <summary>The server refused a request, closed the connection or did not answer in time.</summary>
    public sealed class ServerException : Exception
    {
        public ServerException(string message) : base(message) { }
    }

    /// <summary>One TCP connection to an Iggy server (or the sink) with one request in flight at a
    /// time. Connecting and every reply wait are bounded so a dead server never hangs the producer.</summary>
    public sealed class IggyConnection : IDisposable
    {
        public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);
        const int ReplyHeaderSize = 256;

        readonly TcpClient tcp;
        readonly NetworkStream stream;
        readonly string server;
        readonly byte[] replyHeader = new byte[ReplyHeaderSize];
        byte[] replyBody = new byte[256];

        IggyConnection(TcpClient tcp, string server)
        {
            this.tcp = tcp;
            this.server = server;
            tcp.NoDelay = true;
            tcp.ReceiveTimeout = tcp.SendTimeout = (int)Timeout.TotalMilliseconds;
            stream = tcp.GetStream();
        }

        public static IggyConnection Connect(string host, int port)
        {
            string server = host + ":" + port;
            var tcp = new TcpClient();
            try
            {
                if (!tcp.ConnectAsync(host, port).Wait(Timeout))
                    throw new ServerException("cannot connect to " + server + ": no answer within " + Timeout.TotalSeconds + " s");
                return new IggyConnection(tcp, server);
            }
            catch (AggregateException e)
            {
                tcp.Close();
                throw new ServerException("cannot connect to " + server + ": " + e.GetBaseException().Message);
            }
            catch
            {
                tcp.Close();
                throw;
            }
        }

        /// <summary>Sends a frame and waits for its reply; returns the reply body's length, the body
        /// itself being in ReplyBody.</summary>
        public int Request(byte[] frame, int length)
        {
            ulong request = LittleEndian.ReadUInt64(frame, 168);
            byte operation = frame[176];
            try
            {
                stream.Write(frame, 0, length);
                ReadExactly(replyHeader, ReplyHeaderSize);
                uint size = LittleEndian.ReadUInt32(replyHeader, 48);
                if (size < ReplyHeaderSize || size > int.MaxValue)
                    throw new ServerException("server " + server + " sent a reply of impossible size " + size);
                int bodyLength = (int)size - ReplyHeaderSize;
                if (replyBody.Length < bodyLength) replyBody = new byte[bodyLength];
                ReadExactly(replyBody, bodyLength);

                uint status = LittleEndian.ReadUInt32(replyHeader, 216);
                if (status != 0)
                    throw new ServerException("server " + server + " answered request " + request + " (operation " + operation + ") with error status " + status);
                ulong echoed = LittleEndian.ReadUInt64(replyHeader, 200);
                if (echoed != request)
                    throw new ServerException("server " + server + " answered request " + echoed + " while request " + request + " was in flight");
                return bodyLength;
            }
            catch (IOException e)
            {
                var socketError = e.InnerException as SocketException;
                // A receive timeout surfaces as TimedOut on .NET and as WouldBlock on Mono.
                if (socketError != null && (socketError.SocketErrorCode == SocketError.TimedOut || socketError.SocketErrorCode == SocketError.WouldBlock))
                    throw new ServerException("server " + server + " did not answer request " + request + " within " + Timeout.TotalSeconds + " s");
                throw new ServerException("connection to " + server + " failed during request " + request + ": " + e.Message);
            }
        }

        public byte[] ReplyBody { get { return replyBody; } }

        void ReadExactly(byte[] buffer, int count)
        {
            for (int read = 0; read < count;)
            {
                int n = stream.Read(buffer, read, count - read);
                if (n == 0) throw new ServerException("server " + server + " closed the connection");
                read += n;
            }
        }

        public void Dispose()
        {
            stream.Dispose();
            tcp.Close();
        }
    }
}
