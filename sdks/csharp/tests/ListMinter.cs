using System;

namespace Mintbench.Tests
{
    /// <summary>Hands out given IDs in order: known IDs for the encoders under test.</summary>
    public sealed class ListMinter : IMessageIdMinter
    {
        readonly byte[][] ids;
        int next;

        public ListMinter(byte[][] ids) { this.ids = ids; }

        public void MintInto(byte[] destination, int offset)
        {
            Buffer.BlockCopy(ids[next++], 0, destination, offset, MessageId.Size);
        }
    }
}
