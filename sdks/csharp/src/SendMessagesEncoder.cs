using System;

namespace Mintbench
{
    /// <summary>Builds one SEND_MESSAGES request frame for messages firstSeq .. firstSeq + count - 1
    /// (the lean and faithful send paths: the same bytes, different per-message work).</summary>
    public interface IBatchEncoder
    {
        /// <summary>Encodes the batch; returns the frame length, the frame being the start of Frame.</summary>
        int Encode(ulong request, ulong session, ulong originTimestamp, ulong firstSeq, int count);

        byte[] Frame { get; }
    }

    /// <summary>
    /// The SEND_MESSAGES layout around the messages (stream 1, topic 1, partition 0), shared by both
    /// send paths so that they cannot drift apart in the bytes.
    /// </summary>
    public static class SendMessagesFrame
    {
        const int MetadataLength = 22; // stream id 6 + topic id 6 + partitioning 6 + message count 4
        const int BodyPrefix = 4 + MetadataLength;
        const int BatchHeaderSize = 256;
        const int BatchAt = IggyFrames.HeaderSize + BodyPrefix;
        const int BatchChecksumFieldsSize = 5 * 8 + 4; // five u64 fields, then message_count
        public const int MessageHeaderSize = 48;
        /// <summary>Where the first message frame starts.</summary>
        public const int MessagesAt = BatchAt + BatchHeaderSize;

        /// <summary>A buffer for the batch checksum's input of up to maxMessages messages.</summary>
        public static byte[] NewChecksumInput(int maxMessages)
        {
            return new byte[checked(BatchChecksumFieldsSize + 8 * maxMessages)];
        }

        /// <summary>Refuses a batch count outside 1..maxMessages, what an encoder's buffers hold.</summary>
        public static void CheckCount(int count, int maxMessages)
        {
            if (count < 1 || count > maxMessages)
                throw new ArgumentOutOfRangeException("count", count, "a batch holds 1.." + maxMessages + " messages");
        }

        /// <summary>The request header, the metadata and the batch header, all but the batch checksum.</summary>
        public static void WriteEnvelope(byte[] frame, byte[] client, ulong request, ulong session,
            ulong originTimestamp, int count, int messagesLength)
        {
            IggyFrames.WriteHeader(frame, BodyPrefix + BatchHeaderSize + messagesLength, client, null, request,
                IggyFrames.OperationSendMessages, session);
            int at = IggyFrames.HeaderSize;
            LittleEndian.WriteUInt32(frame, at, MetadataLength);
            at = WriteNumericIdentifier(frame, at + 4, 1); // stream
            at = WriteNumericIdentifier(frame, at, 1);     // topic
            frame[at] = 2;                                 // partitioning kind: partition id
            frame[at + 1] = 4;
            LittleEndian.WriteUInt32(frame, at + 2, 0);
            LittleEndian.WriteUInt32(frame, at + 6, (uint)count);
            // partition_id, base_offset and base_timestamp are 0; a pooled buffer may hold old bytes.
            Array.Clear(frame, BatchAt, BatchHeaderSize);
            LittleEndian.WriteUInt64(frame, BatchAt + 24, originTimestamp);
            LittleEndian.WriteUInt64(frame, BatchAt + 32, (ulong)(BatchHeaderSize + messagesLength));
            LittleEndian.WriteUInt32(frame, BatchAt + 48, (uint)count);
        }

        /// <summary>The fields of message `index` after its ID (no user headers).</summary>
        public static void WriteMessageFields(byte[] frame, int at, int index, int payloadLength)
        {
            LittleEndian.WriteUInt32(frame, at + 24, (uint)index);   // offset_delta
            LittleEndian.WriteUInt32(frame, at + 28, 0);             // timestamp_delta
            LittleEndian.WriteUInt32(frame, at + 32, 0);             // user_headers_length
            LittleEndian.WriteUInt32(frame, at + 36, (uint)payloadLength);
            LittleEndian.WriteUInt64(frame, at + 40, 0);             // reserved
        }

        /// <summary>Checksums the written message frame at `at` and records it for the batch checksum.</summary>
        public static void SealMessage(byte[] frame, int at, int frameLength, byte[] checksumInput, int index)
        {
            ulong checksum = Xxh3.Hash64(frame, at + 8, frameLength - 8);
            LittleEndian.WriteUInt64(frame, at, checksum);
            LittleEndian.WriteUInt64(checksumInput, BatchChecksumFieldsSize + 8 * index, checksum);
        }

        /// <summary>The batch checksum over the header's fields and every sealed message's checksum;
        /// returns the frame length.</summary>
        public static int SealBatch(byte[] frame, byte[] checksumInput, ulong originTimestamp, int count, int messagesLength)
        {
            // partition_id, base_offset and base_timestamp stay 0 in the checksum input.
            LittleEndian.WriteUInt64(checksumInput, 24, originTimestamp);
            LittleEndian.WriteUInt64(checksumInput, 32, (ulong)(BatchHeaderSize + messagesLength));
            LittleEndian.WriteUInt32(checksumInput, 40, (uint)count);
            LittleEndian.WriteUInt64(frame, BatchAt + 40, Xxh3.Hash64(checksumInput, 0, BatchChecksumFieldsSize + 8 * count));
            return MessagesAt + messagesLength;
        }

        static int WriteNumericIdentifier(byte[] frame, int at, uint value)
        {
            frame[at] = 1; // numeric
            frame[at + 1] = 4;
            LittleEndian.WriteUInt32(frame, at + 2, value);
            return at + 6;
        }
    }

    /// <summary>
    /// The lean send path: builds SEND_MESSAGES frames into one reusable buffer. One Fill call
    /// mints the batch's IDs; then per message its ID, the payload and an XXH3 checksum are
    /// written in place. Only the ID path is the SDK's; nothing is allocated per batch.
    /// </summary>
    public sealed class SendMessagesEncoder : IBatchEncoder
    {
        readonly byte[] client;
        readonly IMessageIdMinter ids;
        readonly int bits, pack, payloadLength, messageFrameLength, maxMessages;
        readonly byte[] frame;
        readonly byte[] batchIds;
        readonly byte[] checksumInput;

        public SendMessagesEncoder(byte[] client, int maxMessages, int bits, int pack, IMessageIdMinter ids)
        {
            this.client = client;
            this.maxMessages = maxMessages;
            this.bits = bits;
            this.pack = pack;
            this.ids = ids;
            payloadLength = Payload.Length(bits, pack);
            messageFrameLength = SendMessagesFrame.MessageHeaderSize + payloadLength;
            frame = new byte[checked(SendMessagesFrame.MessagesAt + maxMessages * messageFrameLength)];
            batchIds = new byte[checked(maxMessages * MessageId.Size)];
            checksumInput = SendMessagesFrame.NewChecksumInput(maxMessages);
        }

        public byte[] Frame { get { return frame; } }

        public int Encode(ulong request, ulong session, ulong originTimestamp, ulong firstSeq, int count)
        {
            SendMessagesFrame.CheckCount(count, maxMessages);
            int messagesLength = count * messageFrameLength;
            SendMessagesFrame.WriteEnvelope(frame, client, request, session, originTimestamp, count, messagesLength);
            ids.Fill(batchIds, 0, count);
            int at = SendMessagesFrame.MessagesAt;
            for (int i = 0; i < count; i++, at += messageFrameLength)
            {
                MessageId.Copy(batchIds, i * MessageId.Size, frame, at + 8);
                SendMessagesFrame.WriteMessageFields(frame, at, i, payloadLength);
                Payload.Write(frame, at + SendMessagesFrame.MessageHeaderSize, firstSeq + (ulong)i, bits, pack);
                SendMessagesFrame.SealMessage(frame, at, messageFrameLength, checksumInput, i);
            }
            return SendMessagesFrame.SealBatch(frame, checksumInput, originTimestamp, count, messagesLength);
        }
    }
}
