using System;
using System.Linq;
using System.Reflection;

namespace Mintbench.Tests
{
    /// <summary>Runs every public static parameterless method of every class named *Tests, prints one
    /// line per test and last `N passed, N failed`; exits non-zero on a failure or when nothing ran.
    /// An optional argument keeps only the tests whose Class.Method name contains it.</summary>
    static class TestRunner
    {
        static int Main(string[] args)
        {
            string filter = args.Length > 0 ? args[0] : "";
            var tests = typeof(TestRunner).Assembly.GetTypes()
                .Where(t => t.Name.EndsWith("Tests", StringComparison.Ordinal))
                .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Static))
                .Where(m => m.GetParameters().Length == 0 && m.ReturnType == typeof(void))
                .Select(m => new { Name = m.DeclaringType.Name + "." + m.Name, Method = m })
                .Where(t => t.Name.Contains(filter))
                .OrderBy(t => t.Name, StringComparer.Ordinal);
            int passed = 0, failed = 0;
            foreach (var test in tests)
            {
                try
                {
                    test.Method.Invoke(null, null);
                    passed++;
                    Console.WriteLine("ok   " + test.Name);
                }
                catch (TargetInvocationException e)
                {
                    failed++;
                    Console.WriteLine("FAIL " + test.Name + ": " + e.InnerException.GetType().Name + ": " + e.InnerException.Message);
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }
    }
}
